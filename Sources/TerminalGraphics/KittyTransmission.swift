import CZlib
import Pictures

/// A picture as kitty's graphics protocol transmits and places it, written by Reel rather than
/// libchafa: libchafa sends every pixel as RGBA, uncompressed, so a poster cost 1.3 MB of base64
/// per cursor move, and writing it through the terminal was most of the preview's wait. Here the
/// pixels go as RGB when the picture is opaque (`f=24`, a quarter fewer bytes) and compressed
/// with zlib (`o=z`) when that pays: generated art shrinks to a few KB; a photograph, which
/// deflate shrinks by a tenth at a cost of milliseconds, goes as it is.
///
/// The sequence: `ESC _G a=T,q=2,C=1[,i=ID],f=24|32,s=W,v=H,c=COLUMNS,r=ROWS[,o=z],m=1;…ESC \`,
/// then chunks of at most 4,096 base64 characters (`ESC _G q=2,m=1;…ESC \`), the last with `m=0`.
/// Each chunk is base64 of its own, padded only in the last. Only these fixed keys, numbers and
/// base64 reach the terminal.
enum KittyTransmission {
    /// kitty reads a chunk of at most 4,096 base64 characters.
    static let chunk = 4_096

    /// The bytes that transmit `picture` scaled to `pixelWidth`×`pixelHeight` (at most its own
    /// size) and place it over `columns`×`rows` cells at the cursor, the cursor left where it was.
    static func encode(_ picture: Picture, pixelWidth: Int, pixelHeight: Int, columns: Int, rows: Int, imageID: UInt32?) -> [UInt8] {
        let scaled = Self.scaled(picture, width: min(pixelWidth, picture.width), height: min(pixelHeight, picture.height))
        let opaque = Self.isOpaque(scaled)
        let raw = opaque ? Self.rgb(scaled) : scaled.rgba
        let compressed = Self.deflate(raw)
        let payload = Self.base64(compressed ?? raw)
        var control = "a=T,q=2,C=1"
        if let imageID { control += ",i=\(imageID)" }
        control += ",f=\(opaque ? 24 : 32),s=\(scaled.width),v=\(scaled.height),c=\(columns),r=\(rows)"
        if compressed != nil { control += ",o=z" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + (payload.count / chunk + 1) * 16 + control.utf8.count)
        var start = 0
        repeat {
            let end = min(start + chunk, payload.count)
            bytes += [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
            // q=2 on every chunk: kitty reads it from the first, older versions answered the rest.
            bytes += start == 0 ? Array(control.utf8) + [UInt8(ascii: ",")] : Array("q=2,".utf8)
            bytes += Array((end < payload.count ? "m=1;" : "m=0;").utf8)
            bytes += payload[start..<end]
            bytes += [0x1B, UInt8(ascii: "\\")]
            start = end
        } while start < payload.count
        return bytes
    }

    /// `picture` reduced to `width`×`height` (each at most its own), each pixel the mean of the
    /// source pixels it covers (alpha-weighted colours, so a transparent pixel lends none).
    static func scaled(_ picture: Picture, width: Int, height: Int) -> Picture {
        let width = max(1, width), height = max(1, height)
        guard width != picture.width || height != picture.height else { return picture }
        let columns = (0...width).map { $0 * picture.width / width }
        let rowsAt = (0...height).map { $0 * picture.height / height }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        picture.rgba.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let top = rowsAt[y], bottom = max(rowsAt[y + 1], top + 1)
                    for x in 0..<width {
                        let left = columns[x], right = max(columns[x + 1], left + 1)
                        var red = 0, green = 0, blue = 0, alpha = 0
                        for sy in top..<bottom {
                            var offset = (sy * picture.width + left) * 4
                            for _ in left..<right {
                                let a = Int(source[offset + 3])
                                red += Int(source[offset]) * a
                                green += Int(source[offset + 1]) * a
                                blue += Int(source[offset + 2]) * a
                                alpha += a
                                offset += 4
                            }
                        }
                        let count = (bottom - top) * (right - left)
                        let at = (y * width + x) * 4
                        if alpha > 0 {
                            target[at] = UInt8((red + alpha / 2) / alpha)
                            target[at + 1] = UInt8((green + alpha / 2) / alpha)
                            target[at + 2] = UInt8((blue + alpha / 2) / alpha)
                        }
                        target[at + 3] = UInt8((alpha + count / 2) / count)
                    }
                }
            }
        }
        return Picture(width: width, height: height, rgba: out)
    }

    static func isOpaque(_ picture: Picture) -> Bool {
        picture.rgba.withUnsafeBufferPointer { pixels in
            stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
        }
    }

    /// The picture's red, green and blue, without alpha.
    static func rgb(_ picture: Picture) -> [UInt8] {
        let count = picture.width * picture.height
        return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            picture.rgba.withUnsafeBufferPointer { pixels in
                for pixel in 0..<count {
                    out[pixel * 3] = pixels[pixel * 4]
                    out[pixel * 3 + 1] = pixels[pixel * 4 + 1]
                    out[pixel * 3 + 2] = pixels[pixel * 4 + 2]
                }
            }
            initialized = count * 3
        }
    }

    /// `bytes` as a zlib stream (RFC 1950, deflate's fastest level), or nil when compressing is
    /// not worth its time. Flat colours (the sample's art, a logo) shrink to a hundredth in well
    /// under a millisecond; a photograph's pixels shrink by a tenth at best and cost deflate
    /// several milliseconds (9.5 ms for a grainy 300×450 poster, measured with Python's zlib), so
    /// a slice from the middle is tried first and the whole is compressed only when the slice
    /// shrank to at most half.
    static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        if bytes.count > 4 * sampleSize {
            let middle = bytes.count / 2
            guard let sample = compressed(bytes[(middle - sampleSize / 2)..<(middle + sampleSize / 2)]), sample.count * 2 <= sampleSize else {
                return nil
            }
        }
        guard let whole = compressed(bytes[...]), whole.count < bytes.count else { return nil }
        return whole
    }

    /// How much of a large picture is tried first (bytes).
    static let sampleSize = 48 * 1_024

    private static func compressed(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in compress2(target.baseAddress, &size, source.baseAddress, uLong(source.count), 1) }
        }
        guard status == Z_OK else { return nil }
        out.removeLast(out.count - Int(size))
        return out
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Base64 (RFC 4648, padded) in `chunk`-sized pieces that are each whole: 4,096 characters
    /// are 3,072 bytes, so only the last piece can end in padding.
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let groups = (bytes.count + 2) / 3
        return [UInt8](unsafeUninitializedCapacity: groups * 4) { out, initialized in
            bytes.withUnsafeBufferPointer { source in
                var at = 0
                var index = 0
                while index + 3 <= source.count {
                    let value = Int(source[index]) << 16 | Int(source[index + 1]) << 8 | Int(source[index + 2])
                    out[at] = alphabet[value >> 18]
                    out[at + 1] = alphabet[(value >> 12) & 63]
                    out[at + 2] = alphabet[(value >> 6) & 63]
                    out[at + 3] = alphabet[value & 63]
                    at += 4
                    index += 3
                }
                let left = source.count - index
                if left > 0 {
                    let value = Int(source[index]) << 16 | (left == 2 ? Int(source[index + 1]) << 8 : 0)
                    out[at] = alphabet[value >> 18]
                    out[at + 1] = alphabet[(value >> 12) & 63]
                    out[at + 2] = left == 2 ? alphabet[(value >> 6) & 63] : UInt8(ascii: "=")
                    out[at + 3] = UInt8(ascii: "=")
                    at += 4
                }
                initialized = at
            }
        }
    }
}
