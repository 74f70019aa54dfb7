#if canImport(Glibc)
import CLMDB
import Glibc
#endif

/// Reads the two meta pages of an existing `data.mdb` with `pread`, before LMDB maps the file.
///
/// LMDB trusts its file: a `data.mdb` cut short is mapped as if whole, and the first read of a page
/// past the end raises SIGBUS. The newest meta page says how many pages the file must hold
/// (`last_pg + 1`, of `psize` bytes), so a file shorter than that is refused here, with one line
/// naming it, before any page is touched. Nothing here touches the map, so it cannot crash on any
/// bytes.
///
/// The layout is LMDB 0.9.24's on 64-bit Linux (`mdb.c`, `MDB_page` and `MDB_meta`): a 16-byte page
/// header (its flags at offset 10), then magic `0xBEEFC0DE` (u32), version 1 (u32), address,
/// map size, two 48-byte `MDB_db` records (the first one's first field is the page size), the
/// last page number and the transaction id, in native byte order. Page 0 and page 1 each hold a
/// meta; LMDB uses the one with the higher transaction id.
public struct DataFileCheck: Sendable {
    /// What the newest valid meta page says.
    public struct Meta: Sendable, Equatable {
        public let pageSize: Int
        public let lastPage: Int
        public let transactionID: Int
        /// The main database's root page and depth (0 and 0 when it is empty).
        public let mainRoot: Int
        public let mainDepth: Int
        /// The bytes the file must hold at least: `(lastPage + 1) × pageSize`.
        public var requiredBytes: Int { (lastPage + 1) * pageSize }
    }

    /// Why a file was refused.
    public enum Damage: Sendable, Equatable {
        /// The file exists and holds no byte (a creation that never wrote its meta pages, or a
        /// file emptied by something else). The caller decides what that means.
        case empty
        /// Shorter than its meta page says.
        case truncated(size: Int, required: Int)
        /// A meta page is missing or is not an LMDB 0.9 meta page.
        case invalidMeta(String)
    }

    /// The file checked: `<directory>/data.mdb`.
    public let path: String
    public let size: Int
    public let meta: Meta

    static let headerSize = 16
    static let metaFlag: UInt16 = 0x08
    static let magic: UInt32 = 0xBEEF_C0DE
    static let dataVersion: UInt32 = 1
    /// `sizeof(MDB_meta)` on 64-bit: what LMDB reads of each meta page.
    static let metaSize = 136

    /// Checks `<directory>/data.mdb`; `nil` when there is no such file (a new environment).
    /// Throws `LMDBError` with code `.corrupted` (or `.emptyDataFile`) naming the file; an error
    /// opening or reading it (permission) is thrown as its errno.
    public static func check(directory: String) throws -> DataFileCheck? {
        let path = directory + "/data.mdb"
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            let code = errno
            throw LMDBError(code: .init(rawValue: code), function: "open", message: "\(path): \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        // The size and the meta pages are reads another process's commit can fall between: it
        // grows the file and then writes a newer meta page, so a size taken before that commit
        // and a meta page read after it look like a file cut short. So a file that seems short is
        // measured again after its meta pages were read (`sizeAfterReading`), and a meta page read
        // while it was written (torn) is read again: damage stays, a commit does not, so a verdict
        // of damage is taken only when three looks agree.
        var looks = 0
        while true {
            looks += 1
            let size = try fileSize(fd, path)
            let read = { (offset: Int, count: Int) in try readBytes(fd, path, offset, count) }
            switch try inspect(size: size, read: read, sizeAfterReading: { try fileSize(fd, path) }) {
            case .success(let meta):
                return DataFileCheck(path: path, size: size, meta: meta)
            case .failure(let found) where found.damage == .empty || looks == 3:
                throw error(found.damage, path: path)
            case .failure:
                usleep(1_000)
            }
        }
    }

    private static func fileSize(_ fd: Int32, _ path: String) throws -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            throw LMDBError(code: .init(rawValue: code), function: "fstat", message: "\(path): \(String(cString: strerror(code)))")
        }
        return Int(info.st_size)
    }

    /// `check` as `Environment` runs it before `mdb_env_open`. A file found empty is looked at
    /// again for a moment: LMDB creates `data.mdb` and then writes its meta pages, under a lock
    /// this check does not take, so another process making a new environment right now leaves it
    /// empty for a few microseconds. Empty for 100 ms is empty.
    static func checkBeforeOpening(directory: String) throws {
        var attempts = 0
        while true {
            do {
                _ = try check(directory: directory)
                return
            } catch let error as LMDBError where error.code == .emptyDataFile && attempts < 50 {
                attempts += 1
                usleep(2_000)
            }
        }
    }

    /// The error `check` throws for `damage` of the file at `path`.
    public static func error(_ damage: Damage, path: String) -> LMDBError {
        switch damage {
        case .empty:
            return LMDBError(code: .emptyDataFile, function: "mdb_env_open", message: "\(path): it is empty (0 bytes)")
        case .truncated(let size, let required):
            return LMDBError(
                code: .corrupted, function: "mdb_env_open",
                message: "\(path): it holds \(size) bytes but its meta page needs \(required) (the file was cut short)")
        case .invalidMeta(let reason):
            return LMDBError(code: .corrupted, function: "mdb_env_open", message: "\(path): \(reason)")
        }
    }

    /// The meta pages' verdict on a file of `size` bytes read through `read(offset, count)`.
    /// `sizeAfterReading` measures the file again, after the meta pages were read; a file whose
    /// pages a concurrent commit wrote (before its meta page) holds them by then.
    static func inspect(
        size: Int, read: (Int, Int) throws -> [UInt8], sizeAfterReading: () throws -> Int
    ) rethrows -> Result<Meta, DamageFound> {
        guard size > 0 else { return .failure(DamageFound(.empty)) }
        guard size >= headerSize + metaSize else { return .failure(DamageFound(.invalidMeta("\(size) bytes is too short to hold a meta page"))) }
        let first = try read(0, headerSize + metaSize)
        guard let meta0 = parseMeta(first) else { return .failure(DamageFound(.invalidMeta("page 0 is not an LMDB meta page"))) }
        guard meta0.pageSize >= 512, meta0.pageSize <= 0x8000, meta0.pageSize & (meta0.pageSize - 1) == 0 else {
            return .failure(DamageFound(.invalidMeta("page 0 names a page size of \(meta0.pageSize) bytes")))
        }
        guard size >= meta0.pageSize + headerSize + metaSize else {
            return .failure(DamageFound(.invalidMeta("\(size) bytes is too short to hold the second meta page")))
        }
        guard let meta1 = parseMeta(try read(meta0.pageSize, headerSize + metaSize)) else {
            return .failure(DamageFound(.invalidMeta("page 1 is not an LMDB meta page")))
        }
        // LMDB reads both and needs both valid; it uses the newer one.
        let newest = meta1.transactionID > meta0.transactionID ? meta1 : meta0
        guard newest.lastPage >= 1, newest.lastPage < Int.max / newest.pageSize else {
            return .failure(DamageFound(.invalidMeta("the meta page names last page \(newest.lastPage)")))
        }
        guard try size >= newest.requiredBytes || sizeAfterReading() >= newest.requiredBytes else {
            return .failure(DamageFound(.truncated(size: size, required: newest.requiredBytes)))
        }
        return .success(newest)
    }

    struct DamageFound: Error {
        let damage: Damage
        init(_ damage: Damage) { self.damage = damage }
    }

    /// A meta page's fields, or `nil` when the page is not a version-1 LMDB meta page.
    static func parseMeta(_ page: [UInt8]) -> Meta? {
        guard page.count >= headerSize + metaSize else { return nil }
        return page.withUnsafeBytes { b -> Meta? in
            func u16(_ at: Int) -> UInt16 { UInt16(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt16.self)) }
            func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
            func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            let m = headerSize
            guard u16(10) & metaFlag != 0, u32(m) == magic, u32(m + 4) == dataVersion else { return nil }
            // mm_dbs[0] (free pages) at +24, mm_dbs[1] (main) at +72; md_depth at +6, md_root at +40.
            let lastPage = u64(m + 120), txnid = u64(m + 128), root = u64(m + 72 + 40)
            guard lastPage < UInt64(Int.max), txnid < UInt64(Int.max) else { return nil }
            // An empty main database has no root (P_INVALID, all ones).
            let depth = root == UInt64.max ? 0 : Int(u16(m + 72 + 6))
            return Meta(
                pageSize: Int(u32(m + 24)), lastPage: Int(lastPage), transactionID: Int(txnid),
                mainRoot: depth == 0 ? 0 : Int(truncatingIfNeeded: root), mainDepth: depth)
        }
    }

    /// How many entries the named database `name` held at the newest meta page, read with `pread`
    /// and bounds-checked, so a damaged file cannot crash it (for a caller about to throw the
    /// file away that still wants to say what it held). `nil` when the file cannot tell: the main
    /// database is deeper than one leaf page (many named databases), or the page does not parse.
    /// 0 when there is no such database.
    public func entries(ofDatabaseNamed name: String) -> Int? {
        if meta.mainDepth == 0 { return 0 }
        guard meta.mainDepth == 1, meta.mainRoot >= 2, meta.mainRoot <= meta.lastPage else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let page = try? Self.readBytes(fd, path, meta.mainRoot * meta.pageSize, meta.pageSize) else { return nil }
        return Self.leafEntries(page, name: Array(name.utf8))
    }

    /// Finds the named database's record (`F_SUBDATA`, an `MDB_db`) on a leaf page of the main
    /// database and returns its `md_entries`.
    static func leafEntries(_ page: [UInt8], name: [UInt8]) -> Int? {
        let leafFlag: UInt16 = 0x02, leaf2Flag: UInt16 = 0x20, subdataFlag: UInt16 = 0x02
        return page.withUnsafeBytes { b -> Int? in
            func u16(_ at: Int) -> Int { Int(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt16.self))) }
            let flags = UInt16(u16(10))
            let lower = u16(12), upper = u16(14)
            guard flags & leafFlag != 0, flags & leaf2Flag == 0, lower >= headerSize, lower <= upper, upper <= b.count else { return nil }
            for i in 0..<(lower - headerSize) / 2 {
                let node = u16(headerSize + 2 * i)
                guard node >= upper, node + 8 <= b.count else { return nil }
                let dataSize = u16(node) | u16(node + 2) << 16
                let nodeFlags = UInt16(u16(node + 4)), keySize = u16(node + 6)
                guard node + 8 + keySize <= b.count else { return nil }
                guard keySize == name.count, memcmp(b.baseAddress! + node + 8, name, keySize) == 0 else { continue }
                let data = node + 8 + keySize
                guard nodeFlags & subdataFlag != 0, dataSize == 48, data + 48 <= b.count else { return nil }
                let entries = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: data + 32, as: UInt64.self))
                return entries < UInt64(Int.max) ? Int(entries) : nil
            }
            return 0
        }
    }

    private static func readBytes(_ fd: Int32, _ path: String, _ offset: Int, _ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        guard got == count else {
            let code = got < 0 ? errno : EIO
            throw LMDBError(code: .init(rawValue: code), function: "pread", message: "\(path): \(String(cString: strerror(code)))")
        }
        return buffer
    }
}
