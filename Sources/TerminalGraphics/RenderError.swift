public import Failures

/// Why a picture could not be made into terminal bytes.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The box of cells is empty or absurd (a caller's mistake, not the picture's).
    case box(columns: Int, rows: Int)
    /// libchafa refused (out of memory, an impossible size).
    case renderer(String)

    public var description: String {
        switch self {
        case .box(let columns, let rows): "cannot draw a picture in \(columns)×\(rows) cells"
        case .renderer(let reason): "could not draw the picture (\(reason))"
        }
    }
}

extension RenderError: KindedError {
    public var kind: FailureKind {
        switch self {
        case .box: .usage
        case .renderer: .unavailable
        }
    }
}
