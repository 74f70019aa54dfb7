import Failures
@_spi(Stores) public import Reel

extension Application {
    /// The application over the stores `configuration` names (`StoreRouter`): what every face
    /// makes, once per process.
    public convenience init(_ configuration: Configuration) {
        self.init(configuration, router: StoreRouter(configuration))
    }

    /// The router that opened the configured stores: the operators' use cases on stores (schema,
    /// shards, moves, copies) work through it.
    var stores: StoreRouter {
        get throws {
            guard let stores = router as? StoreRouter else {
                throw Failure(.usage, "this application was not made over the configured stores, so it cannot administer them")
            }
            return stores
        }
    }
}
