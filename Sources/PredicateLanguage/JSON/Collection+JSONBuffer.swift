extension Collection<UInt8> {
    /// Calls `body` with the bytes in one contiguous buffer (copied first only when they are not
    /// contiguous). The reader is called inside `body`, with its tree type concrete, so that the
    /// compiler specializes it (a call generic over the tree would run it through witness tables).
    package func withJSONBuffer<Output>(_ body: (UnsafeBufferPointer<UInt8>) throws(JSONParsingError) -> Output) throws(JSONParsingError) -> Output {
        let contiguous: Result<Output, JSONParsingError>? = withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParsingError) in try body(buffer) }
        }
        if let contiguous { return try contiguous.get() }
        return try Array(self).withUnsafeBufferPointer { buffer throws(JSONParsingError) in try body(buffer) }
    }
}
