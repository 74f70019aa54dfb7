/// A screen opened over the tabs with `enter`: a title's details or a person's filmography.
/// `AppModel.screens` holds them newest last; `esc` or `q` goes back one.
public enum Screen: Sendable, Equatable {
    case details(DetailsScreen)
    case person(PersonScreen)
}
