import Crypto
import EventLog
import Ledger

/// Handles are kept on disk only as SHA-256 digests, so an account's handle is in no file in the
/// clear once the account is deleted (LMDB keeps freed pages, so deleting a record is not enough).
///
/// - the handle directory is keyed by `SHA-256("reel-handle/1" ‖ 0x00 ‖ handle)`;
/// - a deleted account's record holds `SHA-256("reel-deleted-handle/1" ‖ 0x00 ‖ stream id ‖ 0x00 ‖
///   handle)`, salted with the (random) stream id, so `reel history --user H` still finds it.
///
/// A digest does not hide a handle someone can guess: it only keeps it out of the files.
enum HandleDigest {
    static func directoryKey(_ handle: AccountHandle) -> [UInt8] {
        Array(SHA256.hash(data: Array("reel-handle/1".utf8) + [0] + Array(handle.value.utf8)))
    }

    static func deleted(_ handle: AccountHandle, stream: StreamID) -> [UInt8] {
        Array(SHA256.hash(data: Array("reel-deleted-handle/1".utf8) + [0] + Array(stream.rawValue.utf8) + [0] + Array(handle.value.utf8)))
    }
}
