// Part of the Server trait.
#if Server
/// What the rounds of a `writes` figure measured on a served store (``WritesSection/serveRate(_:clients:round:)``):
/// each round's records a second and the milliseconds of its request that saves nothing, and
/// the first round's processor load.
///
/// ```swift
/// var served = ServedRounds()
/// for round in 0..<3 { served.add(try await WritesSection.serveRate(store, clients: 1, round: "one-\(round)")) }
/// served.rates.median   // the figure
/// ```
struct ServedRounds {
    private(set) var samples: [Double] = []
    private(set) var floors: [Double] = []
    private(set) var firstLoad: ProcessorLoad?

    /// Takes one round's measurement.
    mutating func add(_ measured: (rate: Double, load: ProcessorLoad, floor: Double)) {
        samples.append(measured.rate)
        floors.append(measured.floor)
        firstLoad = firstLoad ?? measured.load
    }

    /// The rounds' records a second.
    var rates: Spread { Spread(samples) }
    /// The median milliseconds of a request that saves nothing.
    var floor: Double { Spread(floors).median }
}
#endif
