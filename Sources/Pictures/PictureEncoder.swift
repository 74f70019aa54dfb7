import CPNG
import CTurboJPEG

/// Encodes a `Picture` as JPEG (libjpeg-turbo) or PNG (libpng): the sample catalog's poster
/// art is served as JPEG, and kitty's graphics protocol takes PNG.
public enum PictureEncoder {
    /// A baseline JPEG with 4:2:0 chroma at `quality` (1…100).
    public static func jpeg(_ picture: Picture, quality: Int = 85) throws(PictureError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .unencodable(format: "JPEG", reason: "the encoder could not start") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = picture.rgba.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(picture.width), 0, Int32(picture.height), Int32(TJPF_RGBA.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(max(1, min(100, quality))), TJFLAG_ACCURATEDCT)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw .unencodable(format: "JPEG", reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// An RGBA PNG.
    public static func png(_ picture: Picture) throws(PictureError) -> [UInt8] {
        var image = png_image()
        image.version = reel_png_image_version
        image.width = UInt32(picture.width)
        image.height = UInt32(picture.height)
        image.format = reel_png_format_rgba
        var size = 0
        // Asked once for the size, then written.
        let measured = picture.rgba.withUnsafeBytes { source in
            png_image_write_to_memory(&image, nil, &size, 0, source.baseAddress, 0, nil)
        }
        guard measured != 0, size > 0 else { throw .unencodable(format: "PNG", reason: PNGReader.message(of: image)) }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { target in
            picture.rgba.withUnsafeBytes { source in
                png_image_write_to_memory(&image, target.baseAddress, &size, 0, source.baseAddress, 0, nil)
            }
        }
        png_image_free(&image)
        guard written != 0 else { throw .unencodable(format: "PNG", reason: PNGReader.message(of: image)) }
        return Array(output.prefix(size))
    }
}
