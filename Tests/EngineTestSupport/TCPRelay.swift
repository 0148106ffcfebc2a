import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on a loopback port that forwards every connection to another port, and can be
/// cut and restored: a database that goes away and comes back, as a test sees it, without
/// stopping the server other tests share.
///
/// Its sockets block, each on a thread of its own, never on the cooperative pool.
///
/// ```swift
/// let relay = try TCPRelay(upstreamPort: 5432)
/// let url = "postgres://user:password@127.0.0.1:\(relay.port)/db"
/// relay.cut()       // open connections end, new ones are refused
/// try relay.restore()
/// ```
package final class TCPRelay: @unchecked Sendable {
    /// The loopback port clients connect to.
    package let port: Int
    let upstreamPort: Int
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var sockets: Set<Int32> = []

    /// What went wrong with a socket call.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// A relay on a free loopback port to `upstreamPort` on loopback, accepting at once.
    package init(upstreamPort: Int) throws {
        self.upstreamPort = upstreamPort
        let (descriptor, port) = try Self.listen(port: 0)
        self.port = port
        listener = descriptor
        startAccepting(descriptor)
    }

    deinit { cut() }

    /// A loopback port that is free now (bound, then released): for a server a test starts
    /// itself, on a port no other suite uses.
    ///
    /// ```swift
    /// let port = try TCPRelay.freePort()   // then: .ci/postgres start DIR \(port)
    /// ```
    package static func freePort() throws -> Int {
        let (descriptor, port) = try listen(port: 0)
        close(descriptor)
        return port
    }

    /// Ends every relayed connection and stops accepting: new connections are refused.
    package func cut() {
        lock.lock()
        let listening = listener
        listener = -1
        let open = sockets
        lock.unlock()
        for socket in open { shutdown(socket, Int32(SHUT_RDWR)) }
        if listening >= 0 {
            shutdown(listening, Int32(SHUT_RDWR))
            close(listening)
        }
    }

    /// Accepts connections again, on the same port.
    package func restore() throws {
        let (descriptor, _) = try Self.listen(port: port)
        lock.lock()
        listener = descriptor
        lock.unlock()
        startAccepting(descriptor)
    }

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func listen(port: Int) throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = address(port: port)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw Failure(description: "bind or listen on port \(port) failed: \(errno)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    private func startAccepting(_ listening: Int32) {
        Thread { [weak self] in
            while true {
                let client = accept(listening, nil, nil)
                guard client >= 0 else { return }
                guard let self else {
                    close(client)
                    return
                }
                self.relay(client)
            }
        }.start()
    }

    /// Connects a new client to the upstream port and pumps bytes both ways.
    private func relay(_ client: Int32) {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        lock.lock()
        let accepting = listener >= 0
        if accepting, connected == 0 { sockets.formUnion([client, upstream]) }
        lock.unlock()
        guard accepting, connected == 0 else {
            close(client)
            close(upstream)
            return
        }
        Thread { [weak self] in self?.pump(from: client, to: upstream) }.start()
        Thread { [weak self] in self?.pump(from: upstream, to: client) }.start()
    }

    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let sent = buffer[offset..<count].withUnsafeBytes { send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { break }
                offset += sent
            }
            if offset < count { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        lock.lock()
        let owned = sockets.remove(source) != nil
        lock.unlock()
        if owned { close(source) }
    }
}
