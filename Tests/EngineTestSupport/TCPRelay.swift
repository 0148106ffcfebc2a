import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on a loopback port that forwards every connection to another port, and can be
/// cut and restored: a database that goes away and comes back, as a test sees it, without
/// stopping the server other tests share.
///
/// Its sockets block, each on a thread of its own, never on the cooperative pool. A descriptor
/// is closed once, by the thread that last uses it, and shut down only while it is open: a
/// descriptor number the kernel hands out again (to another test's connection, in the same
/// process) is never touched. (Shutting down a connecting socket makes its `connect` fail with
/// "connection reset by peer": an earlier relay that shut down the descriptors it had closed
/// broke other tests' PostgreSQL connections that way.)
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
    /// The listener and the relayed connections, shared with the relay's threads (which may
    /// outlive the relay).
    private let state = State()

    /// What went wrong with a socket call.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// One relayed connection: the client's socket and the upstream one, closed together once
    /// both pumps have ended (its count changes under the state's lock).
    private final class Pair: @unchecked Sendable {
        let client: Int32
        let upstream: Int32
        var pumpsRunning = 2

        init(client: Int32, upstream: Int32) {
            self.client = client
            self.upstream = upstream
        }

        /// Ends both directions (both descriptors are open until the last pump closes them).
        func shutDown() {
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(upstream, Int32(SHUT_RDWR))
        }
    }

    /// Every descriptor the relay owns, under one lock. The listener is closed by its accepting
    /// thread and a pair by its last pump, each under the lock, so `cut()` shuts down only open
    /// descriptors.
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        /// The listening descriptor in use, or -1 once cut.
        var listener: Int32 = -1
        var pairs: [ObjectIdentifier: Pair] = [:]
    }

    /// A relay on a free loopback port to `upstreamPort` on loopback, accepting at once.
    package init(upstreamPort: Int) throws {
        self.upstreamPort = upstreamPort
        let (descriptor, port) = try Self.listen(port: 0)
        self.port = port
        state.listener = descriptor
        Self.startAccepting(descriptor, upstreamPort: upstreamPort, state: state)
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

    /// Ends every relayed connection and stops accepting: new connections are refused (a shut
    /// down listener no longer listens; its thread then closes it).
    package func cut() {
        state.lock.withLock {
            if state.listener >= 0 {
                shutdown(state.listener, Int32(SHUT_RDWR))
                state.listener = -1
            }
            for pair in state.pairs.values { pair.shutDown() }
        }
    }

    /// Accepts connections again, on the same port.
    package func restore() throws {
        let (descriptor, _) = try Self.listen(port: port)
        state.lock.withLock { state.listener = descriptor }
        Self.startAccepting(descriptor, upstreamPort: upstreamPort, state: state)
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

    /// Accepts on `listening` until it is shut down (or fails), then closes it.
    private static func startAccepting(_ listening: Int32, upstreamPort: Int, state: State) {
        Thread {
            while true {
                let client = accept(listening, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    break
                }
                relay(client, upstreamPort: upstreamPort, listening: listening, state: state)
            }
            state.lock.withLock {
                if state.listener == listening { state.listener = -1 }
                close(listening)
            }
        }.start()
    }

    /// Connects a new client to the upstream port and pumps bytes both ways, unless the relay
    /// was cut meanwhile.
    private static func relay(_ client: Int32, upstreamPort: Int, listening: Int32, state: State) {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = address(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let pair = Pair(client: client, upstream: upstream)
        let relaying = state.lock.withLock {
            guard state.listener == listening, connected == 0 else { return false }
            state.pairs[ObjectIdentifier(pair)] = pair
            return true
        }
        guard relaying else {
            close(client)
            close(upstream)
            return
        }
        Thread { pump(from: client, to: upstream, pair: pair, state: state) }.start()
        Thread { pump(from: upstream, to: client, pair: pair, state: state) }.start()
    }

    /// Copies bytes from `source` to `destination` until either side ends, then ends both (so
    /// that the other pump ends too); the last of the two closes them.
    private static func pump(from source: Int32, to destination: Int32, pair: Pair, state: State) {
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
        state.lock.withLock {
            pair.shutDown()
            pair.pumpsRunning -= 1
            if pair.pumpsRunning == 0 {
                state.pairs[ObjectIdentifier(pair)] = nil
                close(pair.client)
                close(pair.upstream)
            }
        }
    }
}
