public import Failures

/// Why bytes did not become a picture (or a picture bytes). Every case is the data's fault,
/// never a crash: a truncated download, a file that is no image, a decompression bomb.
public enum PictureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither a JPEG nor a PNG (by the first bytes).
    case unknownFormat
    /// The header says more pixels than the limit allows; nothing was decoded.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The codec refused the bytes: truncated, corrupt, an unsupported variant.
    case undecodable(format: String, reason: String)
    /// Encoding failed (should not happen with a well-formed picture).
    case unencodable(format: String, reason: String)

    public var description: String {
        switch self {
        case .unknownFormat: "not a JPEG or PNG image"
        case .tooManyPixels(let width, let height, let limit):
            "the image is \(width)×\(height) pixels, more than the limit of \(GroupedDigits.of(limit)) pixels"
        case .undecodable(let format, let reason): "a damaged \(format) image (\(reason))"
        case .unencodable(let format, let reason): "could not encode a \(format) image (\(reason))"
        }
    }
}

extension PictureError: KindedError {
    public var kind: FailureKind { .data }
}
