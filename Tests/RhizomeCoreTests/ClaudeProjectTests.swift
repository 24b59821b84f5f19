/// `ClaudeLinker.project(at:name:)`: which folder `rhizome link` links and under which name, on real
/// folders (a repository with and without its own `.claude/`, a folder outside any repository).
import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

@Suite struct ClaudeProjectTests {
    @Test func `a subfolder of a repository is linked as the repository, named after its folder in lower case`() throws {
        let vault = try TemporaryVault()
        let repository = vault.outside.appendingPathComponent("Acme").path
        try FileManager.default.createDirectory(atPath: repository + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repository + "/Sources/App", withIntermediateDirectories: true)
        let project = try ClaudeLinker.project(at: repository + "/Sources/App")
        #expect(project.directory == FileSystemEntry.realPath(repository))
        #expect(project.name == "acme")
        #expect(try ClaudeLinker.project(at: repository, name: "billing").name == "billing")
    }

    @Test func `a folder with its own .claude inside a repository is the project itself`() throws {
        let vault = try TemporaryVault()
        let repository = vault.outside.appendingPathComponent("mono").path
        try FileManager.default.createDirectory(atPath: repository + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repository + "/apps/web/.claude", withIntermediateDirectories: true)
        let project = try ClaudeLinker.project(at: repository + "/apps/web")
        #expect(project.directory == FileSystemEntry.realPath(repository + "/apps/web"))
        #expect(project.name == "mono", "named after the repository, unless a name is given")
    }

    @Test func `a folder outside any repository needs a name`() throws {
        let vault = try TemporaryVault()
        let loose = vault.outside.appendingPathComponent("loose").path
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: true)
        #expect(throws: AgentLinkError.notInGitRepository(FileSystemEntry.realPath(loose) ?? loose)) { try ClaudeLinker.project(at: loose) }
        #expect(try ClaudeLinker.project(at: loose, name: "loose").directory == FileSystemEntry.realPath(loose))
    }
}
