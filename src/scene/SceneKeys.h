// The reference of every scene key (section, key, type and range, unit, default, meaning),
// generated from the settings tables the loader uses, so the documentation cannot drift from
// the code: `floe keys` prints it and docs/scene-keys.md is this text (a test compares them).
#pragma once

#include <string>

namespace floe {

std::string sceneKeysMarkdown();

} // namespace floe
