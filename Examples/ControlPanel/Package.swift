// swift-tools-version: 6.0
// An app on Lamina: a control panel for a boiler, built against Lamina by path with one
// import (docs/writing-an-app.md walks through it).
import PackageDescription

let package = Package(
    name: "ControlPanel",
    dependencies: [
        .package(name: "Lamina", path: "../.."),
    ],
    targets: [
        // The UI, a library so the headless test can run it too.
        .target(name: "ControlPanelUI", dependencies: [.product(name: "Lamina", package: "Lamina")]),
        // The program: `control-panel --backend dummy --frames-out frames`, or a systemd service.
        .executableTarget(name: "ControlPanel", dependencies: ["ControlPanelUI", .product(name: "Lamina", package: "Lamina")]),
        .testTarget(
            name: "ControlPanelTests",
            dependencies: ["ControlPanelUI", .product(name: "Lamina", package: "Lamina")],
            resources: [.copy("Golden"), .copy("panel.touch"), .copy("panel.toml")]),
    ]
)
