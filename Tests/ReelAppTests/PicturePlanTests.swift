import Reel
import ReelApp
import Testing

/// The driver's rule for pictures from one frame to the next (`PicturePlan`): drawn whole when
/// they come, kitty images deleted by id when they go or move, the rows of other pictures gone
/// written whole by curses, and a picture that stays drawn again (a kitty image placed again)
/// where curses may have written over it or scrolled it: anywhere from the first row curses
/// writes to the last.
@Suite struct PicturePlanTests {
    static func placement(_ path: String, row: Int, column: Int = 2, kind: DrawnPicture.Kind = .symbols) -> ScreenBuffer.Placement {
        let picture = DrawnPicture(kind: kind, bytes: Array("pixels".utf8), lines: (0..<3).map { Array("row\($0)".utf8) }, columns: 4, rows: 3)
        return ScreenBuffer.Placement(row: row, column: column, key: .poster(path, columns: 4, rows: 3), picture: picture)
    }

    @Test func aScreenDrawnAfreshDrawsEveryPictureWhole() {
        let pictures = [Self.placement("/a", row: 2), Self.placement("/b", row: 5, kind: .kitty(imageID: 7))]
        let plan = PicturePlan(before: nil, after: pictures, written: Set(0..<30))
        #expect(plan.deletesAll && plan.deletions.isEmpty && plan.clearedRows.isEmpty && plan.replacements.isEmpty)
        #expect(plan.draws == pictures.map { PicturePlan.Draw(placement: $0, rows: nil) })
    }

    @Test func nothingWrittenNothingToDo() {
        let pictures = [Self.placement("/a", row: 2), Self.placement("/b", row: 5, kind: .pixels), Self.placement("/c", row: 8, kind: .kitty(imageID: 3))]
        let plan = PicturePlan(before: pictures, after: pictures, written: [])
        #expect(plan.isEmpty && !plan.deletesAll)
        // Rows 0 and 20 written: curses may have scrolled every row between them.
        let scrolled = PicturePlan(before: pictures, after: pictures, written: [0, 20])
        #expect(scrolled.draws.count == 2 && scrolled.replacements == [pictures[2]])
    }

    @Test func aSymbolsPictureThatMovedIsClearedWhereItWasAndDrawnWhereItIs() {
        let before = [Self.placement("/a", row: 2), Self.placement("/b", row: 5)]
        let after = [Self.placement("/b", row: 2), Self.placement("/c", row: 5)]
        let plan = PicturePlan(before: before, after: after, written: [2, 5])
        #expect(plan.clearedRows == [2, 3, 4, 5, 6, 7] && plan.deletions.isEmpty)
        #expect(plan.draws == after.map { PicturePlan.Draw(placement: $0, rows: nil) })
    }

    @Test func aSymbolsPictureThatStaysIsDrawnAgainOnTheRowsCursesMayHaveTouched() {
        let kept = Self.placement("/a", row: 2)  // rows 2, 3, 4
        func rows(_ written: Set<Int>) -> [Int]? {
            let plan = PicturePlan(before: [kept], after: [kept], written: written)
            #expect(plan.clearedRows.isEmpty && plan.deletions.isEmpty)
            return plan.draws.first.map { $0.rows ?? [] }
        }
        #expect(rows([3]) == [3])
        #expect(rows([0, 1]) == nil && rows([5, 9]) == nil)
        // Rows 1 and 20 written: curses may have scrolled everything between them.
        #expect(rows([1, 20]) == [2, 3, 4])
        #expect(rows([4, 20]) == [4])
        // A picture gone beside it (same rows, another column) has those rows written whole.
        let beside = Self.placement("/b", row: 3, column: 40)
        let plan = PicturePlan(before: [kept, beside], after: [kept], written: [])
        #expect(plan.clearedRows == [3, 4, 5] && plan.draws == [PicturePlan.Draw(placement: kept, rows: [3, 4])])
    }

    @Test func aKittyImageIsDeletedByIdWhenItGoesAndPlacedAgainWhereItMayHaveMoved() {
        let kept = Self.placement("/a", row: 2, kind: .kitty(imageID: 11))
        let gone = Self.placement("/b", row: 5, kind: .kitty(imageID: 12))
        var plan = PicturePlan(before: [kept, gone], after: [kept], written: [])
        #expect(plan.deletions == [12] && plan.clearedRows.isEmpty && plan.draws.isEmpty && plan.replacements.isEmpty)
        // Curses wrote rows around it: it is placed again (its pixels are not sent again).
        plan = PicturePlan(before: [kept, gone], after: [kept], written: [1, 6])
        #expect(plan.deletions == [12] && plan.draws.isEmpty && plan.replacements == [kept])
        // Moved: deleted, then drawn again where it is now.
        let moved = Self.placement("/a", row: 8, kind: .kitty(imageID: 11))
        plan = PicturePlan(before: [kept], after: [moved], written: [])
        #expect(plan.deletions == [11] && plan.draws == [PicturePlan.Draw(placement: moved, rows: nil)] && plan.replacements.isEmpty)
    }

    @Test func aSixelOrITermPictureIsDrawnAgainWholeWhenCursesMayHaveTouchedItsRows() {
        let kept = Self.placement("/a", row: 2, kind: .pixels)
        #expect(PicturePlan(before: [kept], after: [kept], written: [4]).draws == [PicturePlan.Draw(placement: kept, rows: nil)])
        #expect(PicturePlan(before: [kept], after: [kept], written: [5]).isEmpty)
        let gone = Self.placement("/b", row: 10, kind: .pixels)
        let plan = PicturePlan(before: [kept, gone], after: [kept], written: [])
        #expect(plan.clearedRows == [10, 11, 12] && plan.draws.isEmpty)
    }
}
