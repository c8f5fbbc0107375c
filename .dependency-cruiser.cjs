// Import rules for src/ (npm run lint): no cycles, type imports included.
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules form layers; a cycle (type imports included) means a responsibility is in the wrong place.",
      severity: "error",
      from: { path: "^src" },
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
};
