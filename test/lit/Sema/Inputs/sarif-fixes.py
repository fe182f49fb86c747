"""Prints the fix-its of SARIF logs, one per line:
ruleId startLine:startColumn-endLine:endColumn 'inserted text'."""
import json
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        log = json.load(f)
    for result in log["runs"][0]["results"]:
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                for r in change["replacements"]:
                    d = r["deletedRegion"]
                    text = r.get("insertedContent", {}).get("text", "")
                    print("%s %d:%d-%d:%d %r" % (
                        result["ruleId"], d["startLine"], d["startColumn"],
                        d["endLine"], d["endColumn"], text))
