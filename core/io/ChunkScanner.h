#pragma once
#include <cstddef>
#include <string_view>

namespace sl::chunk {

// Cuts the traceEvents array of a Kineto trace into pieces that start at event boundaries, so the
// pieces can be parsed on several threads (docs/Loader.md, "Chunked parsing").
//
// The cuts are guesses that the parse itself confirms: a piece is parsed as the JSON array
// "[" + piece + "]", which only succeeds when the piece starts and ends between two events of the
// array (a cut inside a string leaves a string unclosed, a cut inside an event or its args leaves
// an object open). A load whose pieces do not all parse is parsed again in one piece, which also
// gives the exact error message and byte offset of a bad file.

inline constexpr std::size_t kNotFound = static_cast<std::size_t>(-1);

struct EventsArray {
    std::size_t open = kNotFound; // offset of the '[' that opens the events array
    bool rootIsArray = false;     // the Chrome "array of events" form: the root is that array
};

// Finds the events array in the first bytes of a document (after any byte order mark): the value
// of the root object's "traceEvents" key when it is an array, or the root itself when it is an
// array. Strings (with their escapes) and nesting are tracked, so a "traceEvents" inside a nested
// object or inside a string does not count. open is kNotFound when head ends first or the document
// has another shape.
EventsArray findEventsArray(std::string_view head);

// The offset in window of the '{' that starts an event, guessed from an arbitrary position: the
// first '}' at or below the lowest nesting level seen so far that is followed (white space aside)
// by ',' and '{'. The scan starts after the first newline of the window when there is one: JSON
// strings cannot hold a raw newline, so the string state there is known (outside); without one it
// assumes the window starts outside a string. kNotFound when the window holds no such place.
std::size_t findEventStart(std::string_view window);

} // namespace sl::chunk
