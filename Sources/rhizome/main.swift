import Foundation
import RhizomeCLI

exit(CLI.run(Array(CommandLine.arguments.dropFirst()), context: .live()))
