import Foundation
import Hummingbird
import Reel

/// This Reel as a C2SP tlog witness (`reel serve --witness FILE`), open to anyone: `POST
/// /add-checkpoint` cosigns a checkpoint of a log the file lists once it is shown consistent with
/// the last one cosigned (tlog-witness: 404 for a log not listed, 403 for a signature that does
/// not verify, 400 for a request that is not one, 409 with the size last cosigned as
/// `text/x.tlog.size`, 422 for a checkpoint inconsistent with it); `GET /witness/<origin hash>/checkpoint`
/// is the checkpoint last cosigned of the log whose origin's SHA-256 (lowercase hex) that is.
/// Without `--witness`, both are 404.
struct WitnessEndpoints {
    let application: Reel.Application
    let logs: WitnessedLogs?
    let input: RequestInput

    func add(to router: Router<ServiceRequestContext>) {
        router.post("add-checkpoint") { request, _ in try await addCheckpoint(request) }
        router.get("witness/:origin/checkpoint") { _, context in try TransparencyEndpoints.open { try checkpoint(context.parameters.get("origin") ?? "") } }
    }

    func addCheckpoint(_ request: Request) async throws -> Response {
        guard let logs else { throw Self.notAWitness }
        let text = String(decoding: try await input.bytes(request, limit: 64 << 10), as: UTF8.self)
        do {
            let line = try await OperatorEndpoints.offThread { try application.addCheckpoint(text, logs: logs) }
            return Self.text(.ok, line, type: "text/plain; charset=utf-8")
        } catch let kinded as any KindedError where !(kinded is WitnessRefusal) {
            // Its words may name the server's files: said in general words, by its status.
            throw Problem(Problem.status(of: kinded.kind), kind: kinded.kind.rawValue, "the witness cannot answer now (its operator sees why in its records)")
        } catch let refusal as WitnessRefusal {
            switch refusal.reason {
            case .conflict(let size): return Self.text(.conflict, "\(size)\n", type: "text/x.tlog.size")
            case .malformed: throw Problem(.badRequest, kind: "usage", refusal.summary)
            case .unknownLog: throw Problem(.notFound, kind: "notFound", refusal.summary)
            case .unverified: throw Problem(.forbidden, kind: "tampered", refusal.summary)
            case .inconsistent: throw Problem(.unprocessableContent, kind: "tampered", refusal.summary)
            }
        }
    }

    func checkpoint(_ originHash: String) throws -> Response {
        guard logs != nil else { throw Self.notAWitness }
        guard let note = try application.witnessedCheckpoint(originHash: originHash) else {
            throw Problem.notFound("this witness has cosigned no checkpoint of a log whose origin hashes to that")
        }
        return Self.text(.ok, note, type: "text/plain; charset=utf-8", cache: "public, max-age=2")
    }

    static let notAWitness = Problem.notFound("this service is not a witness (reel serve --witness FILE makes it one)")

    static func text(_ status: HTTPResponse.Status, _ text: String, type: String, cache: String = "no-store") -> Response {
        Response(status: status, headers: [.contentType: type, .cacheControl: cache], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
