import LaminaSceneSyntax
import LaminaVideo
import LaminaWidgets

/// What a scene file names beside it: files inside its folder, fonts by family or file,
/// images, and translation catalogs.
extension SceneFileCompiler {
    /// A file named by a path relative to the scene file's folder, with its links resolved;
    /// it must stay inside the folder. `what` names it in errors ("an image").
    func fileInFolder(_ relative: String, _ node: SceneNode, _ path: String, what: String) throws(ConfigError) -> String {
        guard !relative.utf8.contains(0) else {
            throw SceneFields.error(file, node, path, "\(what)'s path holds a NUL character")
        }
        guard !relative.isEmpty, !relative.hasPrefix("/") else {
            throw SceneFields.error(file, node, path, "\(what) is named by a path relative to the scene file's folder")
        }
        guard let resolved = Paths.resolvingLinks(Paths.joined(folder, relative)) else {
            throw SceneFields.error(file, node, path, "'\(Escaped(relative))' does not exist")
        }
        guard let root = Paths.resolvingLinks(folder), resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw SceneFields.error(file, node, path, "'\(Escaped(relative))' is outside the scene file's folder")
        }
        return resolved
    }

    /// A text layer's face: a font file relative to the scene file's folder (`.ttf`, `.otf`,
    /// `.ttc`), or an installed family with an optional weight after a colon
    /// (`"Noto Sans Arabic"`, `"DejaVu Sans:bold"`), found by fontconfig.
    mutating func font(_ node: SceneNode, _ path: String) throws(ConfigError) -> Font {
        let name = try values.string(node, path, maxLength: 1024)
        if let loaded = fonts[name] { return loaded }
        guard fonts.count < Limits.fonts else {
            throw SceneFields.error(file, node, path, "more than \(Limits.fonts) fonts")
        }
        let lowered = name.lowercased()
        let loaded: Font
        do {
            if [".ttf", ".otf", ".ttc"].contains(where: { lowered.hasSuffix($0) }) {
                loaded = try Font(path: try fileInFolder(name, node, path, what: "a font file"))
            } else {
                var family = Substring(name), weight = FontWeight.regular
                if let colon = name.lastIndex(of: ":") {
                    family = name[..<colon]
                    let word = name[name.index(after: colon)...]
                    guard let named = FontWeight(rawValue: String(word)) else {
                        throw SceneFields.error(file, node, path, "'\(Escaped(String(word)))' is not a weight "
                            + "(\(FontWeight.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    weight = named
                }
                loaded = try Font(family: String(family), weight: weight)
            }
        } catch let error as ConfigError {
            throw error
        } catch let error as FontError {
            throw SceneFields.error(file, node, path, "\(error.path): \(error.reason)")
        } catch {
            throw SceneFields.error(file, node, path, "\(error)")
        }
        loaded.fallbacks = fallbackFonts
        fonts[name] = loaded
        return loaded
    }

    /// `fallbackFonts:` — faces (named as `font` names them) tried in order for characters a
    /// text layer's face lacks, before fontconfig is asked; read before the layers.
    mutating func readFallbackFonts(_ node: SceneNode) throws(ConfigError) {
        guard let items = node.items, (1...Limits.fonts).contains(items.count) else {
            throw SceneFields.error(file, node, "fallbackFonts", "expected a list of 1…\(Limits.fonts) fonts")
        }
        var found: [Font] = []
        for (i, item) in items.enumerated() { found.append(try font(item, "fallbackFonts[\(i)]")) }
        do {
            let standard = try Font()
            standard.fallbacks = found
            defaultFontWithFallbacks = standard
        } catch {
            throw SceneFields.error(file, node, "fallbackFonts", "the default face: \(error)")
        }
        fallbackFonts = found
    }

    /// An image by path relative to the file's folder; the resolved path must stay inside it.
    /// A video layer's clip: a regular file inside the scene file's folder, or an
    /// `http`, `https`, `rtsp` or `rtsps` URL (checked for its form; GStreamer reports what
    /// it finds there while playing).
    func videoSource(_ node: SceneNode, _ path: String) throws(ConfigError) -> VideoSource {
        let written = try values.string(node, path, maxLength: 1024)
        let isURL = ["http://", "https://", "rtsp://", "rtsps://"].contains { written.lowercased().hasPrefix($0) }
        let source = isURL ? written : try fileInFolder(written, node, path, what: "a video")
        // GStreamer opens the file when the scene is built, on the loop: a FIFO or a device
        // there would hold it, so only a regular file is taken.
        if !isURL, (try? Paths.regularFileSize(source)) ?? nil == nil {
            throw SceneFields.error(file, node, path, "'\(Escaped(written))' is not a regular file")
        }
        do { return try VideoSource(source) } catch { throw SceneFields.error(file, node, path, error.description) }
    }

    mutating func image(_ node: SceneNode, _ path: String) throws(ConfigError) -> PixelBuffer {
        let relative = try values.string(node, path, maxLength: 1024)
        let resolved = try fileInFolder(relative, node, path, what: "an image")
        if let loaded = images[resolved] { return loaded }
        guard images.count < Limits.images else {
            throw SceneFields.error(file, node, path, "more than \(Limits.images) images")
        }
        // The budget is checked from the PNG's header, before anything is decoded.
        let allowed = min(Limits.imagePixels, Limits.totalImagePixels - imagePixels)
        let image: RGBAImage
        do {
            image = try RGBAImage.readPNG(from: resolved, maximumPixels: allowed)
        } catch {
            let budget = allowed < Limits.imagePixels
                ? " (the scene's images may have \(Limits.totalImagePixels) pixels in all; \(imagePixels) are used)"
                : " (an image may have \(Limits.imagePixels) pixels)"
            let over = error.reason.contains("pixels allowed") ? budget : ""
            throw SceneFields.error(file, node, path, "'\(Escaped(relative))' is not a PNG Lamina can read: \(error.reason)\(over)")
        }
        imagePixels += image.width * image.height
        let buffer = PixelBuffer(rgba: image)
        images[resolved] = buffer
        return buffer
    }

    /// `translations:` — a folder inside the scene file's, holding one GNU message catalog
    /// per language (`de.mo`, `pt_BR.mo`, compiled by `msgfmt`); every text's translations
    /// are read from them.
    mutating func readTranslations(_ node: SceneNode) throws(ConfigError) {
        let name = try values.string(node, "translations", maxLength: 1024)
        let folderPath = try fileInFolder(name, node, "translations", what: "a translations folder")
        guard Paths.isDirectory(folderPath) == true else {
            throw SceneFields.error(file, node, "translations", "'\(Escaped(name))' is not a folder")
        }
        let names: [String]
        do { names = try Paths.entries(of: folderPath, limit: 1024) } catch {
            throw SceneFields.error(file, node, "translations", "cannot list '\(Escaped(name))': \(error)")
        }
        for entry in names.sorted() where entry.hasSuffix(".mo") {
            let language = String(entry.dropLast(3))
            guard Translations.isLanguageTag(language) else {
                throw SceneFields.error(file, node, "translations", "'\(Escaped(entry))' is not named after a language (de.mo, pt_BR.mo)")
            }
            guard catalogs.count < Limits.catalogs else {
                throw SceneFields.error(file, node, "translations", "more than \(Limits.catalogs) catalogs")
            }
            let path = Paths.joined(folderPath, entry)
            do {
                catalogs.append((language, Paths.joined(name, entry), try MessageCatalog(path: path)))
            } catch {
                throw SceneFields.error(file, node, "translations", error.reason)
            }
        }
    }
}
