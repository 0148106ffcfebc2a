import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// Files move between a client and the store a chunk at a time, never whole: an upload is in the
/// store's files before its body has all arrived, a download has read only part of its file
/// while its client has read nothing, and a file past its limit is refused as it arrives, with
/// no `Content-Length` to go by. (What that saves is measured by `Scripts/asset-memory.py`: the
/// server's peak memory during 60 slow downloads and 20 uploads of 50 MiB.)
@Suite struct AssetStreamingTests {
    /// Bytes of a size, none alike in a run of 251.
    static func pattern(_ count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count { bytes[index] = UInt8(index % 251) }
        return Data(bytes)
    }

    /// Waits, up to `seconds`, until `condition` gives a value; nil when it never did.
    static func waitFor<T>(seconds: Double = 30, _ condition: () -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = condition() { return value }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// The files of a folder and their sizes.
    static func files(in folder: String) -> [String: Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { name in
            (name, ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.size] as? Int) ?? -1)
        })
    }

    /// The position of this process's open file whose path ends in `suffix`, or nil when none is open.
    static func openFilePosition(endingIn suffix: String) -> Int? {
        for descriptor in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor), target.hasSuffix(suffix),
                  let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + descriptor, encoding: .utf8),
                  let line = info.split(separator: "\n").first(where: { $0.hasPrefix("pos:") }) else { continue }
            return Int(line.dropFirst("pos:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test func anUploadIsInTheStoreBeforeItsBodyHasAllArrived() async throws {
        let path = TestEngine.temporaryDatabasePath("assets-upload-streaming")
        let store = try Store.open(path: path)
        let bytes = Self.pattern(3 * Asset.chunkSize + 10)
        let asset = Asset(bytes: bytes)
        try await ServerHarness.withServer(store: store) { server in
            let port = server.port
            let target = String(try await AssetBindingTests.uploadURL(server).dropFirst("http://127.0.0.1:\(port)".count))
            let incoming = path + ".assets/incoming"
            let (writtenEarly, answer) = try await RawConnection.onThread { () throws -> (Int?, RawConnection.Reading) in
                let connection = try RawConnection(port: port)
                connection.send("POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(bytes.count)\r\n\r\n")
                connection.send(Array(bytes.prefix(2 * Asset.chunkSize)))
                // Two chunks of three and a bit sent: the first is in the upload's file already.
                let written = Self.waitFor { Self.files(in: incoming).values.first { $0 >= Asset.chunkSize } }
                connection.send(Array(bytes.dropFirst(2 * Asset.chunkSize)))
                return (written, connection.read(timeout: 30))
            }
            #expect(writtenEarly.map { $0 >= Asset.chunkSize && $0 < bytes.count } == true, "\(String(describing: writtenEarly))")
            #expect(answer.status == 200, "\(answer.text)")
            let receipt = try JSONValue(parsing: Array(answer.body.utf8))["singleFile"]
            #expect(receipt?["fileChecksum"] == .string(asset.fileChecksum))
            #expect(receipt?["size"] == .integer(Int64(bytes.count)))
            // Filed under its name, nothing left behind.
            #expect(FileManager.default.contents(atPath: path + ".assets/pending/\(asset.checksumHex)-\(bytes.count)") == bytes)
            #expect(Self.files(in: incoming).isEmpty)
        }
    }

    @Test func aFileSentWithoutItsLengthIsRefusedOnceItPassesTheLimit() async throws {
        let path = TestEngine.temporaryDatabasePath("assets-chunked-upload")
        let store = try Store.open(path: path)
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.assets.maximumSize = 16
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let port = server.port
            let target = String(try await AssetBindingTests.uploadURL(server).dropFirst("http://127.0.0.1:\(port)".count))
            let answer = try await RawConnection.onThread { () throws -> RawConnection.Reading in
                let connection = try RawConnection(port: port)
                connection.send("POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nTransfer-Encoding: chunked\r\n\r\n")
                connection.send("a\r\n0123456789\r\na\r\n0123456789\r\n0\r\n\r\n")
                return connection.read(timeout: 30)
            }
            #expect(answer.status == 413, "\(answer.text)")
            let error = try JSONValue(parsing: Array(answer.body.utf8))
            #expect(error["serverErrorCode"] == "QUOTA_EXCEEDED")
            #expect(error["reason"] == "the file is larger than 16 bytes")
            #expect(Self.files(in: path + ".assets/incoming").isEmpty)
            #expect(Self.files(in: path + ".assets/pending").isEmpty)
        }
    }

    @Test func aDownloadHasReadPartOfItsFileWhileItsClientHasReadNothing() async throws {
        let path = TestEngine.temporaryDatabasePath("assets-download-streaming")
        let store = try Store.open(path: path)
        // Large beside what a loopback connection's kernel buffers hold (up to 4 MiB a side,
        // more with autotuning): 16 MiB once saw 8.25 MiB read ahead under a loaded CI machine.
        let size = 64 << 20
        let bytes = Self.pattern(size)
        let asset = Asset(bytes: bytes)
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.assets.maximumSize = size
        // The 64 MiB upload that sets the test up can take longer than the default 30 s body
        // timeout on a loaded machine (the server then closed it, and the client's retry found its
        // single-use URL spent: 401).
        configuration.bodyTimeout = 600
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let port = server.port
            let receipt = try await AssetBindingTests.upload(bytes, server)
            let saved = try await AssetBindingTests.save(receipt, server)
            let url = try #require(saved["fields"]?["attachment"]?["value"]?["downloadURL"]?.stringValue)
            let target = String(url.dropFirst("http://127.0.0.1:\(port)".count))
            let file = "/\(asset.checksumHex)-\(size)"
            let (position, reading, closed) = try await RawConnection.onThread { () throws -> (Int?, RawConnection.Reading, Bool) in
                let connection = try RawConnection(port: port, receiveBufferSize: 16 << 10)
                connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                // The server reads the file as the client takes it: with the client reading
                // nothing, the file is open, read as far as the connection's buffers hold. Settled
                // means unchanged for half a second (a loaded machine pauses for less).
                var last = -1
                var since = Date()
                let settled = Self.waitFor { () -> Int? in
                    guard let position = Self.openFilePosition(endingIn: file) else { return nil }
                    if position != last { (last, since) = (position, Date()) }
                    return position > 0 && Date().timeIntervalSince(since) >= 0.5 ? position : nil
                }
                let reading = connection.readLargeResponse(timeout: 60)
                let closed = Self.waitFor { Self.openFilePosition(endingIn: file) == nil ? true : nil } ?? false
                return (settled, reading, closed)
            }
            let read = try #require(position)
            // What the design lets through: the server socket's largest send buffer (tcp_wmem's
            // maximum), the client's locked receive buffer (twice what it asked), NIO's high water
            // mark (64 KiB) and two chunks: one queued past the mark, one waiting in the writer.
            let sendBuffer = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8))?
                .split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) } ?? (4 << 20)
            let bound = sendBuffer + 2 * (16 << 10) + (64 << 10) + 3 * Asset.chunkSize
            #expect(read <= bound, "the server read \(read) of \(size) bytes before its client read any (bound \(bound))")
            #expect(reading.status == 200)
            let headEnd = try #require(reading.bytes.firstRange(of: Array("\r\n\r\n".utf8)))
            #expect(String(decoding: reading.bytes[..<headEnd.lowerBound], as: UTF8.self).lowercased().contains("content-length: \(size)"))
            #expect(reading.bytes.count - headEnd.upperBound == size)
            #expect(Data(reading.bytes[headEnd.upperBound...]) == bytes)
            // The last chunk read, the file is closed.
            #expect(closed)
        }
    }
}
