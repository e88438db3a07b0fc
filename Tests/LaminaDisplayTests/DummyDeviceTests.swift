@testable import LaminaDisplay
@testable import LaminaRaster
import LaminaTestSupport
import SystemPackage
import Testing

@Suite("Dummy KMS device")
struct DummyDeviceTests {
    @Test("refresh comes from the mode timings, not an integer")
    func refreshFromTimings() {
        #expect(KMSMode.cea1080p60.refreshRate == 60)
        let ntsc = KMSMode(name: "1920x1080", width: 1920, height: 1080, clock: 148_352, htotal: 2200, vtotal: 1125)
        #expect(abs(ntsc.refreshRate - 59.94) < 0.001)
        var interlaced = ntsc
        interlaced.flags = 1 << 4
        #expect(abs(interlaced.refreshRate - 2 * ntsc.refreshRate) < 1e-9)
    }

    @Test("dumb buffers have a pitch wider than width · 4")
    func paddedPitch() throws {
        let device = DummyKMSDevice(clock: VirtualClock())
        let buffer = try device.createDumbBuffer(width: 1920, height: 1080, bitsPerPixel: 32)
        #expect(buffer.pitch > 1920 * 4)
        #expect(buffer.size == buffer.pitch * 1080)
        #expect(throws: KMSError.self) { try device.createDumbBuffer(width: 10, height: 10, bitsPerPixel: 24) }
    }

    @Test("a flip completes at the next vblank with its time; a second flip is EBUSY")
    func flipContract() throws {
        let rig = try DummyDisplayRig(width: 32, height: 16, refresh: 50, start: 10)
        let device = rig.device
        let crtc = rig.display.crtc
        rig.clock.advance(by: 0.005)                                       // between vblanks 0 and 1
        try device.pageFlip(crtc: crtc, framebuffer: rig.display.frontFramebuffer, damage: nil)
        #expect(throws: KMSError(call: "drmModePageFlip", errno: Errno.resourceBusy)) {
            try device.pageFlip(crtc: crtc, framebuffer: rig.display.frontFramebuffer, damage: nil)
        }
        #expect(device.nextEventTime == 10.02)
        var events: [VBlankEvent] = []
        try device.handleEvents { events.append($0) }
        #expect(events.isEmpty)                                            // not due yet
        rig.clock.advance(to: 10.02)
        try device.handleEvents { events.append($0) }
        #expect(events == [VBlankEvent(kind: .pageFlip, crtc: crtc, sequence: 1, timestamp: 10.02)])
        #expect(device.nextEventTime == nil)
    }

    @Test("injected failures, late flips and master loss")
    func faults() throws {
        let rig = try DummyDisplayRig()
        let device = rig.device
        device.failNextFlips = [Errno.invalidArgument]
        #expect(throws: KMSError.self) { try rig.display.present() }
        #expect(!rig.display.isFlipPending)
        device.delayNextFlipByVBlanks = 2
        try rig.display.present()
        var sequence: UInt64 = 0
        rig.clock.advance(by: 1)
        try rig.display.dispatchEvents { sequence = $0.sequence }
        #expect(sequence == 3)
        #expect(rig.display.missedVBlanks == 2)
        device.isMasterLost = true
        #expect(throws: KMSError(call: "drmModePageFlip", errno: Errno.permissionDenied)) { try rig.display.present() }
    }
}

@Suite("Display")
struct DisplayTests {
    @Test("present copies the shadow into the back buffer by pitch and flips it in")
    func presentByPitch() throws {
        let rig = try DummyDisplayRig(width: 37, height: 11)
        let display = rig.display
        for y in 0..<11 {
            for x in 0..<37 { display.shadow[x, y] = 0xFF00_0000 | UInt32(x * 6) << 16 | UInt32(y * 20) << 8 | 0x5A }
        }
        let before = display.frontFramebuffer
        try display.present()
        #expect(display.isFlipPending)
        #expect(rig.device.scanoutFramebuffer == before)                   // still the old one until vblank
        rig.clock.advance(by: 1.0 / 60)
        try display.dispatchEvents { _ in }
        #expect(!display.isFlipPending)
        #expect(display.frontFramebuffer != before)
        #expect(rig.device.scanoutFramebuffer == display.frontFramebuffer)
        let shown = try #require(rig.device.framebufferImage(display.frontFramebuffer))
        for y in 0..<11 {
            for x in 0..<37 { #expect(shown[x, y] == display.shadow[x, y]) }
        }
    }

    @Test("a panel plugged in that cannot be lit leaves the display dark and flipping virtually, its buffers freed")
    func unlightablePanelStaysDark() throws {
        let clock = VirtualClock(start: 0)
        let device = DummyKMSDevice(clock: clock)
        device.setConnected(false)
        _ = device.takeHotplug()
        let display = try Display(device: device, virtualMode: .cea1080p60, clock: clock)
        #expect(!display.isLit && device.dumbBufferCount == 0)
        device.isMasterLost = true                                // the modeset will be refused
        device.setConnected(true)
        _ = device.takeHotplug()
        #expect(throws: DisplayError.self) { try display.connectorsChanged() }
        #expect(!display.isLit && display.frontFramebuffer == 0 && device.dumbBufferCount == 0)
        try display.present()                                     // still flips on the virtual output
        clock.advance(to: try #require(display.nextEventTime))
        var kinds: [VBlankEvent.Kind] = []
        try display.dispatchEvents { kinds.append($0.kind) }
        #expect(kinds == [.pageFlip] && !display.isFlipPending, "\(kinds)")
        device.isMasterLost = false
        #expect(try display.connectorsChanged() == .lit)
        #expect(display.isLit && display.frontFramebuffer != 0 && device.dumbBufferCount == 2)
    }

    @Test("no connected connector, or a named one that is missing, is an error")
    func connectorErrors() {
        let device = DummyKMSDevice(clock: VirtualClock())
        #expect(throws: DisplayError.self) { try Display(device: device, connectorName: "HDMI-A-1") }
        device.setConnected(false)
        #expect(throws: DisplayError.self) { try Display(device: device) }
    }
}

/// Rule 79, with the dummy device as the fake vblank source.
@Suite("DisplayLink (rules 78–79)")
struct DisplayLinkTests {
    /// Flips every vblank for `count` vblanks, firing the links at each completion.
    func runFlips(_ rig: DummyDisplayRig, _ links: DisplayLinks, count: Int) throws {
        for _ in 0..<count {
            try rig.display.present()
            rig.clock.advance(to: rig.device.nextEventTime!)
            try rig.display.dispatchEvents { event in
                links.vblank(sequence: event.sequence, timestamp: event.timestamp, refreshRate: rig.display.refreshRate)
            }
        }
    }

    @Test("one callback per flip with timestamp, duration and targetTimestamp")
    func timestamps() throws {
        let rig = try DummyDisplayRig(refresh: 60, start: 0)
        let links = DisplayLinks()
        var seen: [(Double, Double, Double)] = []
        _ = links.add { seen.append(($0.timestamp, $0.duration, $0.targetTimestamp)) }
        try runFlips(rig, links, count: 3)
        #expect(seen.count == 3)
        for (i, (timestamp, duration, target)) in seen.enumerated() {
            #expect(abs(timestamp - Double(i + 1) / 60) < 1e-12)
            #expect(abs(duration - 1.0 / 60) < 1e-12)
            #expect(abs(target - (timestamp + duration)) < 1e-15)
        }
    }

    @Test("isPaused suppresses; invalidate releases the callback; two links each fire once")
    func pauseInvalidate() throws {
        let rig = try DummyDisplayRig()
        let links = DisplayLinks()
        var a = 0, b = 0
        final class Target { var fired = 0 }
        weak var weakTarget: Target?
        let linkA: DisplayLink
        do {
            let target = Target()
            weakTarget = target
            linkA = links.add { _ in target.fired += 1; a += 1 }
        }
        let linkB = links.add { _ in b += 1 }
        try runFlips(rig, links, count: 2)
        #expect(a == 2 && b == 2)
        #expect(weakTarget != nil)                                          // the link retains its target
        linkB.isPaused = true
        #expect(links.hasActiveLinks)
        try runFlips(rig, links, count: 1)
        #expect(a == 3 && b == 2)
        linkA.invalidate()
        #expect(weakTarget == nil)                                          // released by invalidate
        #expect(!links.hasActiveLinks)
        try runFlips(rig, links, count: 1)
        #expect(a == 3 && b == 2)
    }

    @Test("a missed vblank advances timestamp by two intervals, no catch-up callback")
    func missedVBlank() throws {
        let rig = try DummyDisplayRig(refresh: 60, start: 0)
        let links = DisplayLinks()
        var stamps: [Double] = []
        _ = links.add { stamps.append($0.timestamp) }
        try runFlips(rig, links, count: 1)
        rig.device.delayNextFlipByVBlanks = 1
        try runFlips(rig, links, count: 1)
        #expect(stamps.count == 2)
        #expect(abs(stamps[1] - stamps[0] - 2.0 / 60) < 1e-12)
    }

    @Test("a link switched to every second vblank after firing keeps its phase: it fires at the vblank it last targeted, aiming two beyond")
    func reducedRateKeepsPhase() throws {
        let links = DisplayLinks()
        var targets: [Double] = []
        let link = links.add { targets.append($0.targetTimestamp) }
        links.vblank(sequence: 10, timestamp: 10.0 / 60, refreshRate: 60)     // targets vblank 11
        link.preferredFramesPerSecond = 30
        for sequence in UInt64(11)...16 { links.vblank(sequence: sequence, timestamp: Double(sequence) / 60, refreshRate: 60) }
        #expect(targets.map { Int(($0 * 60).rounded()) } == [11, 13, 15, 17])
        #expect(links.nextTargetSequence(refreshRate: 60) == 19, "fired at 15, next at 17 for 19")
        link.preferredFramesPerSecond = 0
        #expect(links.nextTargetSequence(refreshRate: 60) == nil, "a link at every vblank needs every event")
    }

    @Test("preferredFramesPerSecond 30 on 60 Hz fires on every second vblank")
    func reducedRate() throws {
        let rig = try DummyDisplayRig(refresh: 60, start: 0)
        let links = DisplayLinks()
        var durations: [Double] = []
        let link = links.add { durations.append($0.duration) }
        link.preferredFramesPerSecond = 30
        try runFlips(rig, links, count: 6)
        #expect(durations.count == 3)
        #expect(durations.allSatisfy { abs($0 - 2.0 / 60) < 1e-12 })
    }
}

import Foundation

@Suite("DRM card probing")
struct DRMProbeTests {
    @Test("no card under the directory is a clear failure")
    func noCard() throws {
        let dir = NSTemporaryDirectory() + "lamina-dri-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard case .failure(let error) = DRMDevice.openFirstUsable(directory: dir) else {
            Issue.record("opened a card in an empty directory")
            return
        }
        #expect(error.detail == "no \(dir)/card* device")
    }

    @Test("cards are tried in numeric order and each refusal is reported")
    func notADRMDevice() throws {
        let dir = NSTemporaryDirectory() + "lamina-dri-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["card10", "card2", "renderD128"] {
            #expect(FileManager.default.createFile(atPath: "\(dir)/\(name)", contents: Data()))
        }
        #expect(DRMDevice.cardPaths(directory: dir) == ["\(dir)/card2", "\(dir)/card10"])
        guard case .failure(let error) = DRMDevice.openFirstUsable(directory: dir) else {
            Issue.record("a plain file passed as a DRM card")
            return
        }
        #expect(error.detail.contains("drmGetCap") && error.detail.components(separatedBy: ";").count == 2)
    }
}

@Suite("Presenting damage")
struct PresentDamageTests {
    @Test("copying only each buffer's missed damage keeps the shown frame equal to the shadow")
    func bufferAge() throws {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        let display = rig.display
        var seed: UInt32 = 7
        func next(_ n: Int) -> Int {
            seed = seed &* 1_103_515_245 &+ 12345
            return Int((seed >> 8) % UInt32(n))
        }
        display.shadow.fill(pixel: 0xFF10_2030)
        try display.present()
        while rig.step() {}
        for frame in 0..<20 {
            let x0 = next(35), y0 = next(25)
            var region = (x0, y0, x0 + 1 + next(10), y0 + 1 + next(10))
            if frame % 5 == 4 {
                region = (0, 0, 0, 0)                                      // some frames change nothing
            } else {
                display.shadow.fill(pixel: 0xFF00_0000 | UInt32(frame * 12), x0: region.0, y0: region.1, x1: region.2, y1: region.3)
            }
            try display.present(damage: PixelRect(x0: region.0, y0: region.1, x1: region.2, y1: region.3))
            while rig.step() {}
            #expect(Pixels.differing(display.readFront(), display.shadow) == 0, "frame \(frame)")
        }
        #expect(display.copiedPixels < 40 * 30 * 6)                          // far less than copying all 21 frames
    }

    @Test("changes far apart are copied as their own rectangles, not the one spanning them, and the shown frame stays the shadow")
    func regionsCopiedApart() throws {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        let display = rig.display
        display.shadow.fill(pixel: 0xFF10_2030)
        for damage in [nil, PixelRect(width: 0, height: 0)] {             // both buffers get the whole frame
            try display.present(damage: damage)
            while rig.step() {}
        }
        var seed: UInt32 = 11
        func next(_ n: Int) -> Int {
            seed = seed &* 1_103_515_245 &+ 12345
            return Int((seed >> 8) % UInt32(n))
        }
        let start = display.copiedPixels
        for frame in 0..<20 {
            // Two 3×3 changes, one in the top-left quarter and one in the bottom-right.
            let corners = [(next(17), next(12)), (20 + next(17), 15 + next(12))]
            let regions = corners.map { x, y in PixelRect(x0: x, y0: y, x1: x + 3, y1: y + 3) }
            for r in regions { display.shadow.fill(pixel: 0xFF00_0000 | UInt32(frame * 12), x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1) }
            try display.present(damage: regions[0].union(regions[1]), regions: regions)
            while rig.step() {}
            #expect(Pixels.differing(display.readFront(), display.shadow) == 0, "frame \(frame)")
        }
        // The back buffer missed this frame and the one before (double buffering): their
        // rectangles in each quarter, merged where they overlap (two 3×3 ones span at most
        // 5×5), so at most 50 pixels a frame after the first's 18.
        #expect(display.copiedPixels - start <= 18 + 19 * 50)
        #expect(display.copiedPixels - start < 20 * 20 * 15)                // a quarter of the spanning rectangles' pixels
    }
}
