// What a front end needs to name, and nothing more, so that it imports `Reel` alone (handbook,
// Architecture): the domain's vocabulary (accounts, titles, commands, outcomes), the kinds of
// failure, JSON values for `--json`, safe file input and output, and the few storage and catalog types that reports carry.
// A front end never reaches the log, LMDB or the catalog client themselves.

@_exported public import Failures
// Files a person names: bounded reads, atomic private writes (`--out`), killed exports.
@_exported public import Files
@_exported public import JSONKit
@_exported public import Ledger

// Storage types reports carry (ids, hashes, verification results).
@_exported public import struct EventLog.ChainHash
@_exported public import struct EventLog.EnvelopeJSON
@_exported public import struct EventLog.StreamID
@_exported public import struct EventLog.VerificationProblem
@_exported public import struct EventLog.VerificationReport

// Catalog types reports carry (credentials a person gives, cache figures, TMDb dates).
@_exported public import struct Catalog.CacheStatistics
@_exported public import enum Catalog.Credentials
@_exported public import struct Catalog.TMDbDate
// Images: which size to fetch, what came back, the image cache's figures; and pictures as pixels
// (decoded for drawing by a front end's renderer).
@_exported public import enum Catalog.ImageSizeChoice
@_exported public import struct Catalog.FetchedImage
@_exported public import struct Catalog.ImageCacheStatistics
@_exported public import struct Catalog.ImageConfiguration
@_exported public import Pictures
// OMDb: the awards line read, a list's scores, what filling them did and why it stopped, the
// day's budget.
@_exported public import struct Catalog.OMDbAwards
@_exported public import struct Catalog.OMDbScores
@_exported public import struct Catalog.OMDbFillReport
@_exported public import enum Catalog.OMDbFailure
