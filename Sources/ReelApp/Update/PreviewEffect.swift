public import Reel

/// The preview pane's I/O: waiting for the cursor to rest, then the title's details.
public enum PreviewEffect: Sendable, Equatable {
    /// Wait `settleMilliseconds`; comes back as `PreviewMessage.settled` with `generation`.
    case settle(generation: Int)
    /// Wait `prepareMilliseconds`; comes back as `PreviewMessage.resting` with `generation`.
    case prepare(generation: Int)
    /// A title's details, as the details screen asks for them (similar titles too), so one
    /// cached answer serves both and `enter` on a previewed title opens at once.
    case load(MediaKey)

    /// How long the cursor rests on a title before its poster and details are asked for: more
    /// than a keyboard's repeat (about 30 ms), so a held key passes titles by without asking,
    /// and short enough that a warm poster is on screen within 50 ms of the last key.
    public static let settleMilliseconds = 35

    /// How long the cursor rests before the poster is drawn ahead, from the image cache only
    /// (`AppEffect.preparePicture`), to be on screen the moment the rest is long enough: decoding
    /// and rendering a poster (about 13 ms in kitty's pixels) no longer follows the wait, and a
    /// title passed by asks TMDb for nothing.
    public static let prepareMilliseconds = 20
}
