import PostgresStore

/// What one server of a PostgreSQL store's URL is doing (`reel store status`, `/ready`): its
/// role, how far behind it is, and for a primary the standbys it streams to.
public struct StoreServerStatus: Sendable, Equatable {
    /// `HOST:PORT`, or the socket's directory.
    public let server: String
    /// `primary`, `standby` or `unreachable`.
    public let role: String
    /// Why it could not be asked, in words.
    public let problem: String?
    /// A primary's `synchronous_commit` and `synchronous_standby_names`.
    public let synchronousCommit: String?
    public let synchronousStandbyNames: String?
    /// The standbys a primary streams to.
    public let standbys: [Standby]
    /// A standby's own view: whether it streams now, and how far its replay is behind.
    public let streaming: Bool?
    public let lagBytes: Int64?
    public let lagSeconds: Double?

    /// A standby as its primary sees it.
    public struct Standby: Sendable, Equatable {
        public let name: String
        public let state: String
        public let syncState: String
        public let lagBytes: Int64
        public let lagSeconds: Double
        public let synchronous: Bool
        /// Whether it sends feedback (`hot_standby_feedback`), which makes each commit slower.
        public let feedback: Bool
    }

    init(_ server: PostgresReplication.Server) {
        self.server = server.server
        role = server.role.rawValue
        problem = server.problem
        synchronousCommit = server.synchronousCommit
        synchronousStandbyNames = server.synchronousStandbyNames
        standbys = server.standbys.map {
            Standby(name: $0.name, state: $0.state, syncState: $0.syncState, lagBytes: $0.lagBytes, lagSeconds: $0.lagSeconds, synchronous: $0.isSynchronous,
                feedback: $0.feedback)
        }
        streaming = server.streaming
        lagBytes = server.replayLagBytes
        lagSeconds = server.replayLagSeconds
    }
}
