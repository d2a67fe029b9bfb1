# The BenchExec tool-info module of icpic3 as a package outside `benchexec.tools`: BenchExec
# loads a tool named with a dot as a full module name (`tool="icpic3_tool.icpic3"`), found
# through PYTHONPATH=benchmarks/benchexec.
