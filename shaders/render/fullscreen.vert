#version 460
// One triangle that covers the viewport (three vertices, no inputs); fragment shaders index
// pixels with gl_FragCoord.
void main()
{
    const vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
}
