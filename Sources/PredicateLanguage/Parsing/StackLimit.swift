#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much stack the current thread has left, so that deeply nested input fails with a
/// syntax error instead of overflowing a small thread stack (512 KB on secondary threads on macOS).
///
/// The parser asks only once its nesting passes a threshold, so ordinary input never pays
/// for the query (which on Linux may read `/proc/self/maps` for the main thread).
enum StackLimit {
    /// The lowest and highest addresses of the current thread's stack, or nil when the platform does not say.
    static func currentThreadStackBounds() -> ClosedRange<UInt>? {
        #if canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        return top > size ? (top - size)...top : nil
        #elseif canImport(Glibc) || canImport(Musl)
        // pthread_getattr_np is a GNU extension that the Glibc module does not export; look it up.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        let low = UInt(bitPattern: address)
        let (high, overflow) = low.addingReportingOverflow(UInt(size))
        return overflow ? nil : low...high
        #else
        return nil
        #endif
    }

    /// An address inside the current stack frame. Under AddressSanitizer with its fake stacks
    /// (detect_stack_use_after_return) the local lives on the heap instead: callers must
    /// check that the address lies inside the thread's stack before trusting it.
    @inline(never)
    static func approximateStackPointer() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}
