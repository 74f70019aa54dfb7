import LMDB

extension ResponseCache {
    /// What is wrong with the cache when `error` says its file is damaged (LMDB's words, naming
    /// the file), else `nil`: the cache is only a cache, so callers go on without it.
    public static func damage(in error: any Error) -> String? {
        guard let error = error as? LMDBError, error.code.meansDamage else { return nil }
        return error.message
    }

    /// Removes the cache of `directory` whole, files and all (after an account's deletion: it
    /// would tell which titles the account looked up). Nothing there is not an error.
    public static func remove(at directory: String) throws {
        try Environment.removeTree(directory)
    }
}
