import ArgumentParser

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The vault folder.",
        discussion: "Default: $RHIZOME_VAULT, else $OBSIDIAN_VAULT, else the path in ~/.obsidian-vault, else the nearest folder at or above the current one with an .obsidian/ folder.",
        valueName: "path"))
    var vault: String?

    @Option(name: .long, help: ArgumentHelp("The index database file (default: a per-vault file in the user cache folder).", valueName: "path"))
    var db: String?

    @Flag(name: .long, help: "Print a versioned JSON envelope with sorted keys instead of text.")
    var json = false

    @Flag(name: .long, help: "Query the index as it is, without first bringing it up to date (commands that change the vault always do).")
    var noRefresh = false

    @Flag(name: .long, help: "Print straight to the terminal, without a pager, even when the output is longer than a screen.")
    var noPager = false
}
