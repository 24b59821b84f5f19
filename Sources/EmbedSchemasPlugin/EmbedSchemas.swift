/// EmbedSchemas: the build tool plugin that compiles the built-in schema files (`Schemas/*.yaml`,
/// `Schemas/*.json` at the package root) into RhizomeCore as `BuiltInSchemaFiles.swift`, by running
/// `schema-embedder` on the folder.
import Foundation
import PackagePlugin

@main
struct EmbedSchemas: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let schemaFolder = context.package.directoryURL.appending(path: "Schemas", directoryHint: .isDirectory)
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInSchemaFiles.swift", directoryHint: .notDirectory)
        // SwiftPM runs this method only when it re-plans the build (Package.swift or a target's file list
        // changed), not on every build, so the file list below can go stale. Hence the embedder is given the
        // folder and lists it itself, and the folder is an input: adding, removing or renaming a schema file
        // changes the folder and reruns the embedder. The files are inputs so that editing one reruns it.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: schemaFolder.path(percentEncoded: false))) ?? []
        let schemaFiles = names
            .filter { !$0.hasPrefix(".") && ($0.hasSuffix(".yaml") || $0.hasSuffix(".json")) }
            .sorted()
            .map { schemaFolder.appending(path: $0, directoryHint: .notDirectory) }
        return [
            .buildCommand(
                displayName: "Embedding built-in schemas",
                executable: try context.tool(named: "schema-embedder").url,
                arguments: [output.path(percentEncoded: false), schemaFolder.path(percentEncoded: false)],
                inputFiles: [schemaFolder] + schemaFiles,
                outputFiles: [output]
            )
        ]
    }
}
