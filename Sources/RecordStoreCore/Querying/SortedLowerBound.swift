/// Binary search in a sorted array: where a value would go.
extension Array where Element: Comparable {
    /// The index of the first element that is not below `value` in this ascending array (its
    /// count when every element is below): how many elements are below `value`, found in
    /// O(log n). Live results place changed records with it; latency histograms find a
    /// latency's bucket.
    ///
    /// ```swift
    /// [10, 20, 20, 30].lowerBound(of: 20)   // 1
    /// [10, 20, 20, 30].lowerBound(of: 35)   // 4
    /// ```
    package func lowerBound(of value: Element) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
