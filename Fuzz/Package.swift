// swift-tools-version: 6.0
// libFuzzer harnesses for every parser of untrusted input (issue 13, decision 87). Built and
// run by scripts/fuzz with `--sanitize fuzzer --sanitize address`; each harness is an
// executable whose `main` libFuzzer provides. Seed corpora live in Fuzz/Corpus/<harness>.
import PackageDescription

let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "LaminaFuzz",
    dependencies: [.package(name: "Lamina", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [
            .product(name: "Lamina", package: "Lamina"),
            .product(name: "LaminaScenes", package: "Lamina"),
            .product(name: "LaminaBenchmarks", package: "Lamina"),
            .product(name: "LaminaSceneYAML", package: "Lamina"),
            .product(name: "LaminaSceneGenerator", package: "Lamina"),
        ]),
        .executableTarget(name: "FuzzConfig", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzTouchScript", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzSVGPath", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzWorkload", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzSceneFile", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzControlLine", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzSceneStructure", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzMessageCatalog", dependencies: ["FuzzSupport"], swiftSettings: harness),
    ]
)
