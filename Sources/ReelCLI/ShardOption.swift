import ArgumentParser

/// `--shard NAME`: with a shard map, the shard whose log a transparency command is about (each
/// shard is a log of its own, with its own origin, key and checkpoints).
struct ShardOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "With a shard map (--store FILE.json): the shard whose log this is about; each shard is a log of its own.",
            valueName: "name"))
    var shard: String?
}
