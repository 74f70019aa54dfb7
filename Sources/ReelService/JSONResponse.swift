import Hummingbird
import Reel

/// A JSON answer: the document's bytes, `application/json`, never cached by a proxy (every answer
/// is one account's).
struct JSONResponse: ResponseGenerator {
    var status: HTTPResponse.Status = .ok
    let document: JSONValue
    var headers: HTTPFields = [:]

    init(_ document: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.document = document
        self.status = status
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        if fields[.cacheControl] == nil { fields[.cacheControl] = "no-store" }
        var bytes = document.encoded()
        bytes.append(UInt8(ascii: "\n"))
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
