// swift-tools-version: 6.0
// Lamina: a display runtime for Linux kiosks and touchscreen boards.
// Module map: docs/architecture.md (kept in agreement with this file).
import PackageDescription

let package = Package(
    name: "Lamina",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "lamina", targets: ["lamina"]),
        .executable(name: "lamina-scene", targets: ["lamina-scene"]),
        .library(name: "Lamina", targets: ["Lamina"]),
        .library(name: "LaminaScenes", targets: ["LaminaScenes"]),
        .library(name: "LaminaBenchmarks", targets: ["LaminaBenchmarks"]),
        // The scene files' YAML reader in-process (links Yams and so full Foundation): for
        // tools and the fuzzer; the daemon runs it as the `lamina-scene` helper instead.
        .library(name: "LaminaSceneYAML", targets: ["LaminaSceneYAML"]),
        // Scene files written from the format's tables: the structure-aware fuzzer's source.
        .library(name: "LaminaSceneGenerator", targets: ["LaminaSceneGenerator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        // Scene files' YAML, read in the `lamina-scene` helper process (decision 107).
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // `swift package generate-documentation` (scripts/docs): the API reference.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // C libraries, each behind a thin system-library or shim target.
        .systemLibrary(
            name: "CDRM", pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(
            name: "CInput", pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]),
        .systemLibrary(
            name: "CUdev", pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon"),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFriBidi", pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CUnibreak", pkgConfig: "libunibreak",
            providers: [.apt(["libunibreak-dev"])]),
        .target(name: "CLaminaKernels"),
        // GStreamer, opened with dlopen when a scene first plays a video (issue 32).
        .target(name: "CLaminaGStreamer", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "CLaminaPNG",
            linkerSettings: [.linkedLibrary("png16")]),

        // Swift modules, a strict DAG.
        .target(name: "LaminaGeometry"),
        // Clocks, errno and descriptors over swift-system: the one place that reads the
        // monotonic clock and names error numbers.
        .target(
            name: "LaminaSystem",
            dependencies: ["CLinux", .product(name: "SystemPackage", package: "swift-system")]),
        // Pixel buffers and scanout conversion: all a display needs of pixels, without the
        // rasterizer's FreeType and libpng.
        .target(name: "LaminaPixels", dependencies: ["LaminaGeometry"]),
        .target(name: "LaminaRaster", dependencies: ["LaminaGeometry", "LaminaPixels", "LaminaSystem", "CLaminaPNG", "CFreeType",
                                                     "CHarfBuzz", "CFriBidi", "CFontconfig", "CUnibreak",
                                                     "CLaminaKernels"]),
        .target(name: "LaminaAnimation", dependencies: ["LaminaGeometry"]),
        // A scene file's tree with positions: what the YAML helper hands the daemon.
        .target(name: "LaminaSceneSyntax"),
        // YAML → that tree, with Yams (full Foundation): only the helper and tests link it.
        .target(
            name: "LaminaSceneYAML",
            dependencies: ["LaminaSceneSyntax", .product(name: "Yams", package: "Yams")]),
        // Scene files written from the format's own tables, for the fuzzer and property tests.
        .target(name: "LaminaSceneGenerator", dependencies: ["Lamina", "LaminaSceneSyntax"]),
        .executableTarget(name: "lamina-scene", dependencies: ["LaminaSceneSyntax", "LaminaSceneYAML", "LaminaSystem",
                                                             .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "LaminaLayers", dependencies: ["LaminaGeometry", "LaminaRaster", "LaminaAnimation"]),
        .target(
            name: "LaminaDisplay",
            dependencies: [
                "LaminaGeometry", "LaminaSystem", "LaminaPixels", "CDRM", "CUdev", "CLinux",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .target(name: "LaminaInput", dependencies: ["LaminaGeometry", "LaminaLayers", "LaminaSystem", "CInput", "CXKBCommon"]),
        // The loop and everything it drives: scenes, the parts (input and focus, output,
        // power, systemd, the control socket), text fields, the pointer, telemetry.
        .target(
            name: "LaminaRuntime",
            dependencies: [
                "LaminaGeometry", "LaminaSystem", "LaminaPixels", "LaminaRaster", "LaminaAnimation",
                "LaminaDisplay", "LaminaInput", "LaminaLayers", "CLinux",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        // The control socket (docs/control.md): a loop source the daemon opens on the runtime.
        .target(
            name: "LaminaControl",
            dependencies: ["LaminaRuntime", "LaminaDisplay", "LaminaGeometry", "LaminaPixels", "LaminaRaster", "LaminaSystem", "CLinux",
                           .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "Logging", package: "swift-log")]),
        // The widgets, on the runtime's app API: the text field and its on-screen keyboard, the
        // theme and controls, the scroll view and the list.
        // Video decoding with GStreamer (issue 32): frames decoded off the loop, handed over
        // through a bounded queue and a wakeup descriptor.
        .target(name: "LaminaVideo", dependencies: ["CLaminaGStreamer", "LaminaDisplay", "LaminaLayers", "LaminaPixels", "LaminaRuntime", "LaminaSystem"]),
        .target(
            name: "LaminaWidgets",
            dependencies: ["LaminaRuntime", "LaminaAnimation", "LaminaGeometry", "LaminaInput", "LaminaLayers", "LaminaPixels", "LaminaRaster"]),
        // Scene files (decision 107): the compiler and its cost model, FileScene, on the runtime.
        .target(
            name: "LaminaSceneFiles",
            dependencies: ["LaminaRuntime", "LaminaSceneSyntax", "LaminaSystem", "LaminaVideo", "LaminaWidgets",
                           .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "Logging", package: "swift-log")]),
        // The one module an app imports: the runtime re-exported, scene files, the daemon
        // (configuration, console and VT, systemd), calibration and `LaminaApp`.
        .target(
            name: "Lamina",
            dependencies: [
                "LaminaRuntime", "LaminaSceneFiles", "LaminaWidgets", "LaminaControl", "LaminaVideo",
                "LaminaGeometry", "LaminaSystem", "LaminaRaster",
                "LaminaDisplay", "LaminaInput", "LaminaLayers", "LaminaSceneSyntax", "CLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(name: "LaminaScenes", dependencies: ["Lamina"]),
        // What only the command line uses (`lamina curve`, `lamina probe`): kept out of the
        // library an app imports.
        .target(
            name: "LaminaTools",
            dependencies: [
                "Lamina", "LaminaAnimation", "LaminaDisplay", "LaminaGeometry", "LaminaInput", "LaminaLayers",
                "LaminaRaster", "LaminaSystem", .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .target(name: "LaminaBenchmarks", dependencies: ["LaminaGeometry", "LaminaRaster", "LaminaSystem"]),
        .executableTarget(
            name: "lamina",
            dependencies: [
                "Lamina", "LaminaScenes", "LaminaBenchmarks", "LaminaTools", "LaminaAnimation", "LaminaDisplay",
                "LaminaGeometry", "LaminaInput", "LaminaLayers", "LaminaRaster", "LaminaSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "LaminaTestSupport",
            dependencies: [
                "Lamina", "LaminaDisplay", "LaminaGeometry", "LaminaLayers", "LaminaPixels", "LaminaRaster", "LaminaSystem", "CLinux",
                "LaminaSceneFiles", "LaminaSceneYAML",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // Tests, one target per module.
        .testTarget(name: "LaminaGeometryTests", dependencies: ["LaminaGeometry"]),
        .testTarget(
            name: "LaminaSystemTests",
            dependencies: ["LaminaSystem", "LaminaTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(
            name: "LaminaRasterTests", dependencies: ["LaminaGeometry", "LaminaRaster", "CLaminaKernels", "CHarfBuzz", "LaminaTestSupport"],
            exclude: ["Golden"]),
        .testTarget(name: "LaminaBenchmarksTests", dependencies: ["LaminaBenchmarks", "LaminaGeometry", "LaminaRaster", "LaminaTestSupport"]),
        .testTarget(name: "LaminaAnimationTests", dependencies: ["LaminaAnimation", "LaminaGeometry"], exclude: ["Fixtures"]),
        .testTarget(
            name: "LaminaLayersTests", dependencies: ["LaminaAnimation", "LaminaGeometry", "LaminaLayers", "LaminaRaster", "LaminaTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "LaminaDisplayTests",
            dependencies: ["LaminaDisplay", "LaminaRaster", "LaminaSystem", "LaminaTestSupport", "CLinux",
                           .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(
            name: "LaminaInputTests", dependencies: ["LaminaAnimation", "LaminaGeometry", "LaminaInput", "LaminaLayers"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "LaminaSceneFilesTests",
            dependencies: ["LaminaSceneFiles", "LaminaSceneSyntax", "LaminaSceneYAML", "LaminaTestSupport"]),
        .testTarget(name: "LaminaControlTests", dependencies: ["LaminaControl", "LaminaPixels", "LaminaRaster", "LaminaSystem"]),
        .testTarget(
            name: "LaminaWidgetsTests",
            dependencies: ["LaminaWidgets", "LaminaDisplay", "LaminaGeometry", "LaminaInput", "LaminaLayers", "LaminaRaster", "LaminaRuntime",
                           "LaminaTestSupport"],
            exclude: ["Golden"]),                               // read by path (#filePath)
        .testTarget(name: "LaminaVideoTests", dependencies: ["LaminaVideo", "Lamina", "LaminaPixels", "LaminaSystem", "LaminaTestSupport"]),
        .testTarget(name: "LaminaRuntimeTests", dependencies: ["LaminaRuntime", "Lamina", "LaminaTestSupport"]),
        .testTarget(name: "LaminaPixelsTests", dependencies: ["LaminaPixels", "LaminaGeometry"]),
        .testTarget(name: "LaminaSceneSyntaxTests", dependencies: ["LaminaSceneSyntax"]),
        .testTarget(name: "LaminaSceneYAMLTests", dependencies: ["LaminaSceneYAML", "LaminaSceneSyntax"]),
        .testTarget(name: "LaminaScenesTests", dependencies: ["LaminaScenes", "Lamina", "LaminaTestSupport"]),
        .testTarget(name: "LaminaToolsTests", dependencies: ["LaminaTools", "Lamina", "LaminaAnimation"]),
        .testTarget(name: "LaminaSceneGeneratorTests", dependencies: ["LaminaSceneGenerator", "Lamina", "LaminaSceneFiles"]),
        .testTarget(
            name: "LaminaTests",
            dependencies: [
                "Lamina", "LaminaRuntime", "LaminaControl", "LaminaSceneFiles", "LaminaScenes", "LaminaTools", "LaminaTestSupport", "LaminaSceneYAML", "LaminaSceneGenerator",
                "LaminaAnimation", "LaminaDisplay", "LaminaGeometry", "LaminaInput", "LaminaLayers", "LaminaPixels",
                "LaminaRaster", "LaminaSceneSyntax", "LaminaSystem",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Golden"],                               // read by path (#filePath), like LaminaRasterTests' goldens
            resources: [.copy("Fixtures")]),
    ]
)

// The test command (scripts/test) sets LAMINA_OPTIMIZED_DEBUG=1: its debug builds then compile
// the engine's modules, where a test's frames spend their time, optimized with every assertion
// kept (`-O -assert-config Debug`; overflow and exclusivity checks stay too), and the C kernels
// at -O2. The test run under AddressSanitizer and the arm64 one under qemu-user take a third of
// the time or less; the build takes a few percent longer (decision 161). Unset (a plain `swift
// build`, an app depending on Lamina) nothing changes: these are unsafe flags, which SwiftPM
// refuses in a dependency, so they are only ever set for this package built as the root.
if Context.environment["LAMINA_OPTIMIZED_DEBUG"] == "1" {
    let engine: Set<String> = ["LaminaGeometry", "LaminaPixels", "LaminaRaster", "LaminaAnimation", "LaminaLayers"]
    for target in package.targets where engine.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? [])
            + [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))]
    }
    for target in package.targets where target.name == "CLaminaKernels" {
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-O2"], .when(configuration: .debug))]
    }
}
