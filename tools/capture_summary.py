#!/usr/bin/python3
"""Summarise a RenderDoc capture as JSON: debug markers, dispatch and draw counts.

Reads the capture's structured data (every recorded API call) with RenderDoc's Python module,
without replaying it (replay of some calls crashes on lavapipe). Needs Debian's
/usr/bin/python3 with python3-renderdoc.

    /usr/bin/python3 tools/capture_summary.py capture.rdc
"""
import json
import sys

try:
    import renderdoc as rd
except ImportError:
    sys.exit("capture_summary: the renderdoc module is missing (Debian: python3-renderdoc; run with /usr/bin/python3)")


def main(path):
    cap = rd.OpenCaptureFile()
    result = cap.OpenFile(path, "", None)
    if result != rd.ResultCode.Succeeded:
        sys.exit(f"capture_summary: cannot open {path}: {result}")
    sdfile = cap.GetStructuredData()
    markers, dispatches, draws = [], 0, 0
    for chunk in sdfile.chunks:
        name = chunk.name
        if name == "vkCmdDispatch":
            dispatches += 1
        elif name in ("vkCmdDraw", "vkCmdDrawIndexed", "vkCmdDrawIndirect"):
            draws += 1
        elif name == "vkCmdBeginDebugUtilsLabelEXT":
            for i in range(chunk.NumChildren()):
                info = chunk.GetChild(i)
                for j in range(info.NumChildren()):
                    field = info.GetChild(j)
                    if field.name == "pLabelName":
                        markers.append(field.AsString())
    cap.Shutdown()
    print(json.dumps({"markers": sorted(set(markers)), "dispatches": dispatches, "draws": draws}))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
