import ArgumentParser
import RhizomeStore
import RhizomeWatch

/// Options of the commands that watch the vault (`watch`, `mcp`).
struct WatchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Quiet time that ends a burst of changes, in milliseconds.", valueName: "ms"))
    var debounce = 20

    func validate() throws {
        if !(0...5_000).contains(debounce) { throw ValidationError("--debounce takes 0 to 5000 milliseconds") }
    }

    /// The watcher's settings for this vault and index (an index kept inside the vault is left out of it).
    func watcherOptions(vault: String, database: String) -> VaultWatcher.Options {
        var options = VaultWatcher.Options()
        options.debounce = .milliseconds(debounce)
        options.index.excludedPaths = IndexLocation.excludedPaths(databasePath: database, vaultPath: vault)
        return options
    }
}
