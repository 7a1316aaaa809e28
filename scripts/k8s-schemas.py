#!/usr/bin/env python3
"""Writes kubeconform's JSON schemas for every kind of a Kubernetes OpenAPI v2 document (swagger.json).

Usage: k8s-schemas.py SWAGGER_JSON OUT_DIR VERSION
Layout (kubeconform's -schema-location template, see scripts/check-k8s.sh):
  OUT_DIR/v{VERSION}-standalone{,-strict}/{kind}{-group}-{version}.json, all referring to _definitions.json there.
Strict: every object schema that lists properties gets additionalProperties: false, so an unknown or misspelt
field fails. int-or-string and Quantity become "string or number", as the API server accepts them.
"""
import copy
import json
import os
import sys

swagger, out, version = sys.argv[1], sys.argv[2], sys.argv[3]
definitions = json.load(open(swagger))["definitions"]
QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"


def convert(node, strict):
    if isinstance(node, list):
        return [convert(x, strict) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("format") == "int-or-string":
        return {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    converted = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and value.startswith("#/definitions/"):
            converted[key] = "_definitions.json" + value
        else:
            converted[key] = convert(value, strict)
    if strict and "properties" in converted and "additionalProperties" not in converted:
        converted["additionalProperties"] = False
    return converted


for strict in (False, True):
    folder = os.path.join(out, f"v{version}-standalone" + ("-strict" if strict else ""))
    os.makedirs(folder, exist_ok=True)
    converted = {name: convert(schema, strict) for name, schema in definitions.items()}
    converted[QUANTITY] = {"oneOf": [{"type": "string"}, {"type": "number"}]}
    with open(os.path.join(folder, "_definitions.json"), "w") as f:
        json.dump({"definitions": converted}, f)
    kinds = 0
    for name, schema in converted.items():
        for gvk in definitions[name].get("x-kubernetes-group-version-kind", []):
            group = gvk["group"].split(".")[0]
            suffix = (f"-{group}" if group else "") + f"-{gvk['version']}"
            document = copy.deepcopy(schema)
            document["$schema"] = "http://json-schema.org/draft-07/schema#"
            with open(os.path.join(folder, f"{gvk['kind'].lower()}{suffix}.json"), "w") as f:
                json.dump(document, f)
            kinds += 1
    print(f"{folder}: {kinds} kinds")
