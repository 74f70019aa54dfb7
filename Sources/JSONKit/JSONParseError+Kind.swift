public import Failures

extension JSONParseError: KindedError {
    /// Text that is not JSON is malformed input, wherever it came from.
    public var kind: FailureKind { .data }
}
