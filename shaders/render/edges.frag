#version 460
// Outlines in a slate blue, unlit (linear RGB; tests/gpu/RenderTest.cpp checks it): they mark
// where the walls are, against the dark background and the light floor alike.
layout(location = 0) out vec4 color;

void main()
{
    color = vec4(0.22, 0.30, 0.45, 1.0);
}
