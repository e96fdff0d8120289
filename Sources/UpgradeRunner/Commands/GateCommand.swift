import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

/// `upgrade-runner gate`: every old-to-new path of the builds through every scenario.
enum GateCommand {
    static let builds = OptionSpec(
        "--builds", value: "IDS", "The builds, oldest first, comma-separated (default: v1,v2,v3).")
    static let routes = OptionSpec(
        "--routes", value: "LIST",
        "Upgrade routes instead of the default ones, comma-separated, each builds joined by > or -to-, such as 'v1>v2>v3,v1>v3' (quote it: > redirects in a shell)."
    )
    static let release = OptionSpec(
        "--release", value: "ID",
        "The release under test (default: the newest build): only paths that end at it decide the verdict; the others are shipped history, reported."
    )
    static let strict = OptionSpec(
        "--strict", "A failure the old release already had (pre-existing), and a hygiene warning, fail the gate too.")
    static let scenarios = OptionSpec(
        "--scenarios", value: "LIST",
        "The scenarios to run, comma-separated (default: all but the opt-in power-loss, exploration included; extension-first and interleavings where the new build declares an app extension, second-device where the old build keeps a synchronizable secret)."
    )
    static let shard = OptionSpec(
        "--shard", value: "I/N", "Run the I-th of N deterministic slices (for a CI job matrix).")

    static let spec = CommandSpec(
        ["gate"], summary: "Run the release gate over every old-to-new path and scenario.",
        options: [builds, routes, release, strict, scenarios, ScenarioSelection.skip, shard] + GateSettings.specs,
        discussion: """
            Runs every upgrade route between the builds (each pair old < new, the chain through all of them, a fresh
            install of each) through every scenario, each cell on a fresh device; prints the verdict table and writes
            run.json, gate.json, junit.xml, summary.md and paths/ to the artifacts folder. Only the paths that end at the
            release under test decide; a finding its baseline has too is pre-existing. In full: docs/cli.md#gate.
            Exit code: 0 PASS, 1 FAIL, 2 bad usage or input, 3 UNKNOWN.
            """)

    static func run(_ options: GateOptions, _ invocation: Invocation) throws -> Int32 {
        try options.settings.execute(
            builds: options.builds, path: nil, routes: options.routes, release: options.release, strict: options.strict,
            scenarios: options.scenarios, scenariosNamed: options.scenariosNamed,
            shard: options.shard, console: invocation.console)
    }

    /// Parses `--routes`: routes separated by commas, each builds joined by `>` or `-to-`.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming the flag and the route, for an
    ///   empty list, a route of fewer than two builds, a bad build id or a build named twice in a route.
    static func parseRoutes(_ text: String) throws(GateError) -> [BuildPair] {
        var routes: [BuildPair] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let spelled = entry.trimmingCharacters(in: .whitespaces)
            guard let route = BuildPair(routeText: entry) else {
                throw .invalidValue(field: .routes, value: spelled, reason: "names fewer than two builds")
            }
            for (index, id) in route.builds.enumerated() {
                do { try BuildPair.validate(buildID: id) } catch {
                    guard case .invalidBuildID(_, let why) = error else { throw error }
                    throw .invalidValue(field: .routes, value: spelled, reason: "names build \"\(id)\", which \(why)")
                }
                if route.builds[..<index].contains(id) {
                    throw .invalidValue(field: .routes, value: spelled, reason: "names build \"\(id)\" twice")
                }
            }
            if !routes.contains(route) { routes.append(route) }
        }
        return routes
    }

    /// The builds `routes` name, each once, ordered by build number. Whether each route goes in that
    /// order is the plan's to say (``GatePlan``), as for a Swift caller's routes.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming `--routes` and the route, for a
    ///   build the catalogue does not hold.
    static func orderedBuilds(of routes: [BuildPair], catalog: BuildCatalog) throws -> [String] {
        var resolved: [String: Build] = [:]
        for route in routes {
            let text = route.builds.joined(separator: ">")
            for id in route.builds where resolved[id] == nil {
                do { resolved[id] = try catalog.build(id) } catch {
                    throw GateError.invalidValue(
                        field: .routes, value: text, reason: "names unknown build \"\(id)\" (\(error))")
                }
            }
        }
        return resolved.keys.sorted {
            BuildManifest.compareBuildNumbers(resolved[$0]!.manifest.buildNumber, resolved[$1]!.manifest.buildNumber)
                == .orderedAscending
        }
    }
}

/// The options of `gate`, read and checked once, in the order the errors are reported.
struct GateOptions {
    /// The builds, oldest first: `--builds`, or those `--routes` name ordered by build number.
    var builds: [String]
    /// `--routes`, each once, as given.
    var routes: [BuildPair]?
    /// `--release`, checked to be one of the builds.
    var release: String?
    /// `--strict`.
    var strict: Bool
    var scenarios: [Scenario]
    /// Whether `--scenarios` was given.
    var scenariosNamed: Bool
    var shard: ShardSpec?
    var settings: GateSettings

    init(_ options: OptionValues) throws {
        let source = BuildSource(options)
        let buildsText = options.value(GateCommand.builds)
        builds = buildsText.map(GateSettings.list) ?? GateRequest.defaultBuilds
        scenarios = try ScenarioSelection.read(options, GateCommand.scenarios)
        scenariosNamed = options.value(GateCommand.scenarios) != nil
        shard = try options.value(GateCommand.shard).map { try ShardSpec(parsing: $0) }
        if let text = options.value(GateCommand.routes) {
            if buildsText != nil {
                throw UsageError.invalidValue(
                    text, for: "--routes", reason: "cannot be given with --builds (the builds are those the routes name)")
            }
            let given = try GateCommand.parseRoutes(text)
            builds = try GateCommand.orderedBuilds(of: given, catalog: source.catalog)
            routes = given
        }
        for id in builds { try BuildPair.validate(buildID: id) }
        if let given = options.value(GateCommand.release) {
            guard builds.contains(given) else {
                throw UsageError.invalidValue(
                    given, for: "--release", reason: "is not one of the builds (\(builds.joined(separator: ", ")))")
            }
            release = given
        }
        strict = options.flag(GateCommand.strict)
        settings = try GateSettings(options, source: source)
    }
}
