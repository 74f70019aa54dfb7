import CLMDB

#if canImport(Glibc)
import Glibc
#endif

/// An error from LMDB (or from the operating system under it) that keeps the original code,
/// the C function that failed and LMDB's own message.
///
/// ```swift
/// do { try env.write { txn in try txn.put(db, key, value, flags: .noOverwrite) } }
/// catch LMDBError.Code.keyExist { /* the key was there already */ }
/// ```
public struct LMDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An LMDB result code or an errno value; open-ended so no code is ever lost.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let keyExist = Code(rawValue: MDB_KEYEXIST)
        public static let notFound = Code(rawValue: MDB_NOTFOUND)
        public static let pageNotFound = Code(rawValue: MDB_PAGE_NOTFOUND)
        public static let corrupted = Code(rawValue: MDB_CORRUPTED)
        public static let panic = Code(rawValue: MDB_PANIC)
        public static let versionMismatch = Code(rawValue: MDB_VERSION_MISMATCH)
        public static let invalid = Code(rawValue: MDB_INVALID)
        public static let mapFull = Code(rawValue: MDB_MAP_FULL)
        public static let dbsFull = Code(rawValue: MDB_DBS_FULL)
        public static let readersFull = Code(rawValue: MDB_READERS_FULL)
        public static let tlsFull = Code(rawValue: MDB_TLS_FULL)
        public static let txnFull = Code(rawValue: MDB_TXN_FULL)
        public static let cursorFull = Code(rawValue: MDB_CURSOR_FULL)
        public static let pageFull = Code(rawValue: MDB_PAGE_FULL)
        public static let mapResized = Code(rawValue: MDB_MAP_RESIZED)
        public static let incompatible = Code(rawValue: MDB_INCOMPATIBLE)
        public static let badReaderSlot = Code(rawValue: MDB_BAD_RSLOT)
        public static let badTxn = Code(rawValue: MDB_BAD_TXN)
        public static let badValueSize = Code(rawValue: MDB_BAD_VALSIZE)
        public static let badDBI = Code(rawValue: MDB_BAD_DBI)
        // errno values LMDB passes through.
        public static let invalidArgument = Code(rawValue: EINVAL)
        public static let accessDenied = Code(rawValue: EACCES)
        public static let noSpace = Code(rawValue: ENOSPC)
        public static let fileExists = Code(rawValue: EEXIST)
        public static let noSuchFile = Code(rawValue: ENOENT)
        public static let busy = Code(rawValue: EBUSY)
        public static let readOnly = Code(rawValue: EROFS)
        public static let notADirectory = Code(rawValue: ENOTDIR)
        public static let nameTooLong = Code(rawValue: ENAMETOOLONG)
        public static let ioError = Code(rawValue: EIO)
        /// Reel's own, outside LMDB's range: a `data.mdb` of zero bytes (see `DataFileCheck`).
        public static let emptyDataFile = Code(rawValue: -30_700)

        public var description: String {
            self == .emptyDataFile ? "the data file is empty" : String(cString: mdb_strerror(rawValue))
        }

        /// Whether the code says a data file is damaged: LMDB found a page of the wrong type, a page
        /// number past the end, a database record that does not fit (garbage where a record was),
        /// or `DataFileCheck` refused the file.
        public var meansDamage: Bool {
            switch self {
            case .corrupted, .pageNotFound, .panic, .incompatible, .invalid, .versionMismatch, .emptyDataFile: true
            default: false
            }
        }

        /// Lets `catch LMDBError.Code.mapFull` match an `LMDBError` with that code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? LMDBError)?.code == pattern
        }
    }

    public let code: Code
    /// The C function (or wrapper operation) that failed, e.g. `mdb_put`.
    public let function: String
    /// LMDB's message for the code, or a message of the wrapper's own.
    public let message: String

    public init(code: Code, function: String, message: String? = nil) {
        self.code = code
        self.function = function
        self.message = message ?? code.description
    }

    init(_ rc: Int32, _ function: String) {
        self.init(code: Code(rawValue: rc), function: function)
    }

    public var description: String { "\(function): \(message) (\(code.rawValue))" }

    /// The same error with `environment`'s data file named in its message when the code means
    /// damage (LMDB's own messages name no file).
    func naming(damagedFileOf environment: Environment) -> LMDBError {
        guard code.meansDamage else { return self }
        return LMDBError(code: code, function: function, message: "\(environment.path)/data.mdb: \(message)")
    }

}

/// Throws an `LMDBError` unless `rc` is `MDB_SUCCESS`.
@inline(__always)
func check(_ rc: Int32, _ function: @autoclosure () -> String) throws(LMDBError) {
    if rc != MDB_SUCCESS { throw LMDBError(rc, function()) }
}
