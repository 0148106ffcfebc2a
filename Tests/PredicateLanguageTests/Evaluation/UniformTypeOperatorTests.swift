import Foundation
import Testing
@testable import PredicateLanguage

/// `UTI-CONFORMS-TO` and `UTI-EQUALS`: Apple's Predicate Programming Guide ("Predicate Format String
/// Syntax", added 2014-09-17 per its revision history), `NSComparisonPredicate.Operator.conformsTo` and
/// `.typeEquals`, and the conformance of Apple's "System-declared uniform type identifiers".
@Suite("UTI-CONFORMS-TO and UTI-EQUALS")
struct UniformTypeOperatorTests {
    func holds(_ format: String, _ object: Value) throws -> Bool {
        try CompiledPredicate(FormatPredicate(format: format)).evaluate(value: object)
    }

    // On Apple's platforms `[NSPredicate predicateWithFormat:@"SELF UTI-CONFORMS-TO %@", kUTTypeImage]`
    // prints `SELF UTI-CONFORMS-TO "public.image"`.
    @Test func parsesAndPrintsApplesSpelling() throws {
        let predicate = try FormatPredicate(format: "SELF uti-conforms-to %@", "public.image")
        #expect(predicate == .comparison(ComparisonPredicate(.evaluatedObject, .conformsTo, .constant("public.image"))))
        #expect(predicate.predicateFormat == #"SELF UTI-CONFORMS-TO "public.image""#)
        let equals = try FormatPredicate(format: "type UTI-EQUALS 'public.jpeg'")
        #expect(equals == .comparison(ComparisonPredicate(.keyPath("type"), .typeEquals, .constant("public.jpeg"))))
        #expect(equals.predicateFormat == #"type UTI-EQUALS "public.jpeg""#)
        #expect(try FormatPredicate(format: equals.predicateFormat) == equals)
        // A key named `uti` still reads as a key, and `uti - x` as arithmetic.
        #expect(try FormatPredicate(format: "uti - x == 1").predicateFormat == "uti - x == 1")
        #expect(try FormatPredicate(format: "uti-conformsx == 1").predicateFormat == "uti - conformsx == 1")
    }

    // The same gist, run on Apple's platforms: public.jpeg, public.png and com.compuserve.gif conform to
    // public.image; public.mpeg-4 does not. public.mp3 and public.mpeg-4-audio conform to public.audio.
    @Test func conformanceFollowsTheSystemDeclaredHierarchy() throws {
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.image""#, "public.jpeg"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.image""#, "public.png"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.image""#, "com.compuserve.gif"))
        #expect(try !holds(#"SELF UTI-CONFORMS-TO "public.image""#, "public.mpeg-4"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.audio""#, "public.mp3"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.audio""#, "public.mpeg-4-audio"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.data""#, "public.utf8-plain-text"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.content""#, "com.adobe.pdf"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.item""#, "public.folder"))
        #expect(try !holds(#"SELF UTI-CONFORMS-TO "public.data""#, "public.folder"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.text""#, "public.json"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.movie""#, "com.apple.quicktime-movie"))
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.image""#, "public.jpeg"))
        // A type conforms to itself; identifiers compare without regard to case (UTTypeEqual).
        #expect(try holds(#"SELF UTI-CONFORMS-TO "public.jpeg""#, "PUBLIC.JPEG"))
        // A subtype does not conform the other way.
        #expect(try !holds(#"SELF UTI-CONFORMS-TO "public.jpeg""#, "public.image"))
    }

    // UTTypeConformsTo: an undeclared type conforms only to itself.
    @Test func anUnknownIdentifierConformsOnlyToItself() throws {
        #expect(try holds(#"SELF UTI-CONFORMS-TO "com.example.note""#, "com.example.note"))
        #expect(try !holds(#"SELF UTI-CONFORMS-TO "public.data""#, "com.example.note"))
        #expect(try !holds(#"SELF UTI-CONFORMS-TO "public.item""#, "com.example.note"))
        #expect(try !holds(#"SELF UTI-CONFORMS-TO "public.image""#, 42))
        #expect(try !holds(#"SELF UTI-CONFORMS-TO "public.image""#, .null))
    }

    // UTI-EQUALS is type identity (UTTypeEqual), not conformance.
    @Test func typeEqualsIsIdentity() throws {
        #expect(try holds(#"SELF UTI-EQUALS "public.jpeg""#, "public.jpeg"))
        #expect(try holds(#"SELF UTI-EQUALS "public.jpeg""#, "Public.JPEG"))
        #expect(try !holds(#"SELF UTI-EQUALS "public.image""#, "public.jpeg"))
        #expect(try holds(#"ANY types UTI-CONFORMS-TO "public.movie""#, ["types": ["public.png", "public.mpeg-4"]]))
    }

    // CKQuery's Table 2 lists no UTI operators.
    @Test func cloudKitRefusesThem() throws {
        expectViolations(.cloudKit, try FormatPredicate(format: "type UTI-CONFORMS-TO 'public.image'"), [
            ("UTI-CONFORMS-TO (a uniform type identifier operator) is not supported in CloudKit queries",
             #"type UTI-CONFORMS-TO "public.image""#),
        ])
        expectViolations(.cloudKit, try FormatPredicate(format: "type UTI-EQUALS 'public.image'"), [
            ("UTI-EQUALS (a uniform type identifier operator) is not supported in CloudKit queries",
             #"type UTI-EQUALS "public.image""#),
        ])
    }

    @Test func theTableIsClosedAndAcyclic() {
        for (type, parents) in UniformTypeDeclarations.parents {
            for parent in parents { #expect(UniformTypeDeclarations.parents[parent] != nil, "\(type) -> \(parent)") }
            #expect(!UniformTypeHierarchy.supertypes(of: type).contains(type), "\(type) conforms to itself through a cycle")
        }
        #expect(UniformTypeHierarchy.supertypes(of: "public.png") == ["public.image", "public.data", "public.content", "public.item"])
    }
}
