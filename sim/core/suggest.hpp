#pragma once
// "Did you mean ...?" for names a user mistyped.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlsim {

// Edit distance (insertions, deletions, substitutions, adjacent transpositions).
int edit_distance(std::string_view a, std::string_view b, bool fold_case = true);

// The candidate closest to `name`, when it is close enough to be a plausible typo.
std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& candidates);

// "did you mean 'x'?" or, with no close candidate, "valid: a, b, c".
std::string suggest(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace dlsim
