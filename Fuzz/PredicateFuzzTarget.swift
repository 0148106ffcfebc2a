// The libFuzzer entry point for the predicate language. Not part of the package build:
// Scripts/fuzz.sh compiles it together with Sources/PredicateLanguage into one module
// with -sanitize=fuzzer,address.
//
// Properties checked on every input:
// - parsing neither crashes nor hangs (libFuzzer's -timeout bounds each input);
// - a rejection is a FormatPredicateError.syntax whose offset lies inside the input (or an
//   argument error, since inputs may hold % specifiers with no arguments);
// - an accepted input prints to a string that parses back to an equal tree, which
//   prints the same again;
// - evaluating the accepted predicate against a sample object returns or throws a
//   FormatPredicateError, and never crashes.

import Foundation

private let sampleObject: Value = [
    "name": "Saint-Étienne", "population": 171_057, "tags": ["a", "b"], "ratio": 0.5,
    "address": ["city": "Lyon"], "nothing": nil, "scores": [1, 2, 3],
]

private func fail(_ what: String, _ source: String, _ detail: String) -> Never {
    FileHandle.standardError.write(Data("FUZZ PROPERTY BROKEN: \(what)\n  input:  \(source.debugDescription)\n  detail: \(detail)\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let predicate: FormatPredicate
    do {
        predicate = try FormatPredicate(format: source)
    } catch let FormatPredicateError.syntax(error) {
        if error.offset < 0 || error.offset > source.count {
            fail("syntax error offset outside the input", source, "offset \(error.offset) of \(source.count): \(error.message)")
        }
        return 0
    } catch FormatPredicateError.argument {
        return 0
    } catch {
        fail("parse threw something other than a syntax or argument error", source, "\(error)")
    }
    let printed = predicate.predicateFormat
    let reparsed: FormatPredicate
    do {
        reparsed = try FormatPredicate(format: printed)
    } catch {
        fail("the printed form does not parse", source, "printed \(printed.debugDescription): \(error)")
    }
    if reparsed != predicate {
        fail("print then parse gives a different tree", source, "printed \(printed.debugDescription)\n  reprinted \(reparsed.predicateFormat.debugDescription)")
    }
    if reparsed.predicateFormat != printed {
        fail("printing is not stable", source, "\(printed.debugDescription) then \(reparsed.predicateFormat.debugDescription)")
    }
    // Evaluation errors are fine (the throws are typed: only FormatPredicateError); crashes are not.
    var options = EvaluationOptions()
    options.regularExpressionLimits = RegularExpressionLimits(workUnits: 200)
    _ = try? CompiledPredicate(predicate, options: options).evaluate(value: sampleObject, variables: ["X": 1])
    return 0
}
