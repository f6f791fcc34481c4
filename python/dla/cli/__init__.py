"""The command lines of the project's Python tools, each a module run as
`python3 -m dla.cli.NAME` by the tool's shell front end (tools/python-tool.in):
argument parsing and exit statuses only, over the package's modules.

    run_onnx      dla-run-onnx     dla.runner
    import_onnx   dla-import-onnx  dla.onnx
    calibrate     dla-calibrate    dla.calibrate
    compile       dla-compile      dla.compiler
"""
