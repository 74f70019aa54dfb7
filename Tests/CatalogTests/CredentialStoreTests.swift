import Foundation
import ReelTestSupport
import Testing
@testable import Catalog

#if canImport(Glibc)
import Glibc
#endif

/// The credentials file: written whole through `OutputFile` (mode 0600 in a 0700 directory,
/// nothing left beside it), in the bytes it has always had, and read back from files written
/// by earlier versions or by hand.
@Suite struct CredentialStoreTests {
    private func store(_ name: String = #function) -> (CredentialStore, directory: String) {
        let config = temporaryDirectory(name)
        return (CredentialStore(environment: ["XDG_CONFIG_HOME": config]), config + "/reel")
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        #expect(lstat(path, &info) == 0)
        return info.st_mode & 0o7777
    }

    @Test func savesTheSameBytesWithMode0600InA0700Directory() throws {
        let (store, directory) = store()
        try store.save(.bearer("good-4711"))
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "{\"tmdb_api_token\": \"good-4711\"}\n")
        #expect(mode(store.path) == 0o600)
        #expect(mode(directory) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["credentials.json"])
        #expect(try store.load()?.credentials == .bearer("good-4711"))
    }

    @Test func replacesTheFileWholeAndLeavesNothingBeside() throws {
        let (store, directory) = store()
        try store.save(.bearer("first-token-0001"))
        try store.save(.apiKey("0123456789abcdef0123456789abcdef"))
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "{\"tmdb_api_key\": \"0123456789abcdef0123456789abcdef\"}\n")
        #expect(mode(store.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["credentials.json"])
        #expect(try store.load()?.credentials == .apiKey("0123456789abcdef0123456789abcdef"))
    }

    @Test func readsFilesOfOtherShapes() throws {
        let (store, directory) = store()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for text in [
            "{\"tmdb_api_token\": \"tok-1\"}\n",
            "{\"tmdb_api_token\":\"tok-1\"}",
            "{\n  \"other\" : [1, 2.5, null, {\"a\": true}],\n  \"tmdb_api_token\" : \"tok-1\"\n}\n",
            "{\"tmdb_api_token\": \"tok\\u002d1\"}",
        ] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
            #expect(try store.load()?.credentials == .bearer("tok-1"), "\(text)")
        }
    }

    @Test func refusesWhatIsNotAJSONObject() throws {
        let (store, directory) = store()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for text in ["[\"tmdb_api_token\"]", "{\"tmdb_api_token\": \"", "", "\"tmdb_api_token\""] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
            #expect(throws: CredentialStore.StoreError.unreadable(path: store.path, reason: "is not a JSON object")) { try store.load() }
        }
        try Data("{\"tmdb_api_token\": 4711}".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(throws: CredentialStore.StoreError.unreadable(path: store.path, reason: "has neither tmdb_api_token nor tmdb_api_key")) {
            try store.load()
        }
    }

    /// A symbolic link at the path is left as it is (it was replaced by a regular file before),
    /// and so is the file it points to.
    @Test func refusesToReplaceASymbolicLink() throws {
        let (store, directory) = store()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let elsewhere = directory + "/../elsewhere.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: elsewhere))
        #expect(symlink(elsewhere, store.path) == 0)
        #expect(throws: CredentialStore.StoreError.self) { try store.save(.bearer("good-4711")) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store.path) == elsewhere)
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "{}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["credentials.json"])
    }
}
