/// What a store does with the per-stream keys: making them, destroying them (shredding) on the
/// chain's authority, and sealing the data kept beside the log under them, so that data says
/// nothing once a stream's key is gone.
public protocol StreamKeyStore: AnyObject, Sendable {
    // MARK: Keys and shredding

    /// Makes the stream's key now (durably), so a later write transaction need not.
    func prepareKey(for stream: StreamID) throws

    /// Every stream whose key is destroyed.
    func shreddedStreams() throws -> Set<StreamID>

    /// Destroys the keys of closed streams whose destruction a crash interrupted, on the chain's
    /// authority only (else `unauthorizedShredding`, nothing destroyed). Returns those streams.
    @discardableResult
    func completeShredding(step: (ShreddingStep) -> Void) throws -> [StreamID]

    // MARK: Data kept beside the log

    /// Seals `plaintext` under the stream's key; `context` names its purpose and must be given
    /// again to open it.
    func sealBlob(_ plaintext: [UInt8], for stream: StreamID, context: String) throws -> [UInt8]

    /// A name for data kept beside the log that says nothing once the stream's key is destroyed.
    func blobName(_ bytes: [UInt8], for stream: StreamID, context: String) throws -> String

    /// Opens a sealed blob; `nil` when the stream's key is destroyed; `corruptBlob` when the bytes
    /// do not authenticate.
    func openBlob(_ sealed: RawSpan, for stream: StreamID, context: String) throws -> [UInt8]?

    /// Seals several plaintexts of one stream and purpose (`sealBlob` on each, the key found and
    /// set up once).
    func sealBlobs(_ plaintexts: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]]

    /// Opens several blobs of one stream and purpose (`openBlob` on each, the key found and set
    /// up once); `nil` when the stream's key is destroyed (none given: none opened, whatever the
    /// key); `corruptBlob` when any does not authenticate.
    func openBlobs(_ sealed: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]]?
}

extension StreamKeyStore {
    /// Opens a sealed blob held in an array (`openBlob` on its bytes).
    public func openBlob(_ sealed: [UInt8], for stream: StreamID, context: String) throws -> [UInt8]? {
        try openBlob(sealed.span.bytes, for: stream, context: context)
    }
}
