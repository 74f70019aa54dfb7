import Reel
import ReelApp
import Testing

/// The driver's rule for pictures from one frame to the next (`PicturePlan`): drawn whole when
/// they come, kitty images deleted by id when they go or move, the rows of other pictures gone
/// written whole by curses, and a picture that stays drawn again where curses wrote over it.
@Suite struct PicturePlanTests {
    static func placement(_ path: String, row: Int, column: Int = 2, kind: DrawnPicture.Kind = .symbols) -> ScreenBuffer.Placement {
        let picture = DrawnPicture(kind: kind, bytes: Array("pixels".utf8), lines: (0..<3).map { Array("row\($0)".utf8) }, columns: 4, rows: 3)
        return ScreenBuffer.Placement(row: row, column: column, key: .poster(path, columns: 4, rows: 3), picture: picture)
    }

    @Test func aScreenDrawnAfreshDrawsEveryPictureWhole() {
        let pictures = [Self.placement("/a", row: 2), Self.placement("/b", row: 5, kind: .kitty(imageID: 7))]
        let plan = PicturePlan(before: nil, after: pictures, rewritten: Set(0..<30))
        #expect(plan.deletesAll && plan.deletions.isEmpty && plan.clearedRows.isEmpty)
        #expect(plan.draws == pictures.map { PicturePlan.Draw(placement: $0, rows: nil) })
    }

    @Test func nothingChangedNothingToDo() {
        let pictures = [Self.placement("/a", row: 2), Self.placement("/b", row: 5, kind: .pixels)]
        let plan = PicturePlan(before: pictures, after: pictures, rewritten: [0, 1, 9])
        #expect(plan.isEmpty && !plan.deletesAll)
    }

    @Test func aSymbolsPictureThatMovedIsClearedWhereItWasAndDrawnWhereItIs() {
        let before = [Self.placement("/a", row: 2), Self.placement("/b", row: 5)]
        let after = [Self.placement("/b", row: 2), Self.placement("/c", row: 5)]
        let plan = PicturePlan(before: before, after: after, rewritten: [2, 5])
        #expect(plan.clearedRows == [2, 3, 4, 5, 6, 7] && plan.deletions.isEmpty)
        #expect(plan.draws == after.map { PicturePlan.Draw(placement: $0, rows: nil) })
    }

    @Test func aSymbolsPictureThatStaysIsDrawnAgainOnlyOnRowsCurseWroteInto() {
        let kept = Self.placement("/a", row: 2)
        var plan = PicturePlan(before: [kept], after: [kept], rewritten: [3, 20])
        #expect(plan.draws == [PicturePlan.Draw(placement: kept, rows: [3])] && plan.clearedRows.isEmpty)
        // A picture gone beside it (same rows, another column) has those rows written whole.
        let beside = Self.placement("/b", row: 3, column: 40)
        plan = PicturePlan(before: [kept, beside], after: [kept], rewritten: [])
        #expect(plan.clearedRows == [3, 4, 5] && plan.draws == [PicturePlan.Draw(placement: kept, rows: [3, 4])])
    }

    @Test func aKittyImageIsDeletedByIdAndOtherwiseLeftAlone() {
        let kept = Self.placement("/a", row: 2, kind: .kitty(imageID: 11))
        let gone = Self.placement("/b", row: 5, kind: .kitty(imageID: 12))
        var plan = PicturePlan(before: [kept, gone], after: [kept], rewritten: [2, 3, 4, 5])
        #expect(plan.deletions == [12] && plan.clearedRows.isEmpty && plan.draws.isEmpty)
        // Moved: deleted, then drawn again where it is now.
        let moved = Self.placement("/a", row: 8, kind: .kitty(imageID: 11))
        plan = PicturePlan(before: [kept], after: [moved], rewritten: [])
        #expect(plan.deletions == [11] && plan.draws == [PicturePlan.Draw(placement: moved, rows: nil)])
    }

    @Test func aSixelOrITermPictureIsDrawnAgainWholeWhenCursesWroteIntoItsRows() {
        let kept = Self.placement("/a", row: 2, kind: .pixels)
        #expect(PicturePlan(before: [kept], after: [kept], rewritten: [4]).draws == [PicturePlan.Draw(placement: kept, rows: nil)])
        #expect(PicturePlan(before: [kept], after: [kept], rewritten: [5]).isEmpty)
        let gone = Self.placement("/b", row: 10, kind: .pixels)
        let plan = PicturePlan(before: [kept, gone], after: [kept], rewritten: [])
        #expect(plan.clearedRows == [10, 11, 12] && plan.draws.isEmpty)
    }
}
