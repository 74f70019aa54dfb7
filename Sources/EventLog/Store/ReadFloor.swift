/// What a read must hold at least (`EventStoreReader.read(atLeast:_:)`): every event up to a
/// position of the log, or a stream at a version.
public enum ReadFloor: Sendable, Equatable {
    case position(UInt64)
    case version(UInt64, of: StreamID)
}
