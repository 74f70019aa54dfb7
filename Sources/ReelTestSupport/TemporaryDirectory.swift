import Foundation

/// A fresh directory under the system temp dir, for one test's LMDB files.
public func temporaryDirectory(_ name: String = #function) -> String {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("reel-tests").path
    try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    let template = base + "/" + name.filter { $0.isLetter || $0.isNumber } + "-XXXXXX"
    var bytes = Array(template.utf8CString)
    return bytes.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}
