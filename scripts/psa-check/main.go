// psa-check evaluates every pod template in rendered Kubernetes manifests against the Pod Security Standard that
// its Namespace enforces (label pod-security.kubernetes.io/enforce), with the API server's own admission code
// (k8s.io/pod-security-admission). A pod template that the namespace would reject fails the check.
//
// Usage: psa-check FILE.yaml...   (output of kubectl kustomize)
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	sigsyaml "sigs.k8s.io/yaml"
)

type object struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name      string            `json:"name"`
		Namespace string            `json:"namespace"`
		Labels    map[string]string `json:"labels"`
	} `json:"metadata"`
}

type pod struct {
	file, kind, name, namespace string
	template                    corev1.PodTemplateSpec
}

func main() {
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks())
	if err != nil {
		panic(err)
	}
	failed, checked := false, 0
	for _, file := range os.Args[1:] {
		levels, pods, err := read(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", file, err)
			os.Exit(2)
		}
		for _, p := range pods {
			level, ok := levels[p.namespace]
			if !ok {
				fmt.Printf("FAIL %s: %s %s/%s: namespace %s enforces no Pod Security level\n", file, p.kind, p.namespace, p.name, p.namespace)
				failed = true
				continue
			}
			checked++
			for _, result := range evaluator.EvaluatePod(level, &p.template.ObjectMeta, &p.template.Spec) {
				if !result.Allowed {
					fmt.Printf("FAIL %s: %s %s/%s violates %s: %s (%s)\n", file, p.kind, p.namespace, p.name,
						level.Level, result.ForbiddenReason, result.ForbiddenDetail)
					failed = true
				}
			}
		}
	}
	if failed {
		os.Exit(1)
	}
	fmt.Printf("psa-check: %d pod templates admitted by their namespaces' Pod Security level\n", checked)
}

// read returns the enforced level of every Namespace in file and its pod templates.
func read(file string) (map[string]api.LevelVersion, []pod, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	levels := map[string]api.LevelVersion{}
	var pods []pod
	reader := yaml.NewYAMLReader(bufio.NewReader(f))
	for {
		doc, err := reader.Read()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var o object
		if err := sigsyaml.Unmarshal(doc, &o); err != nil {
			return nil, nil, err
		}
		var template *corev1.PodTemplateSpec
		switch o.Kind {
		case "Namespace":
			if enforce, ok := o.Metadata.Labels[api.EnforceLevelLabel]; ok {
				level, err := api.ParseLevel(enforce)
				if err != nil {
					return nil, nil, err
				}
				version := api.LatestVersion()
				if v, ok := o.Metadata.Labels[api.EnforceVersionLabel]; ok {
					if version, err = api.ParseVersion(v); err != nil {
						return nil, nil, err
					}
				}
				levels[o.Metadata.Name] = api.LevelVersion{Level: level, Version: version}
			}
		case "Deployment":
			var d appsv1.Deployment
			err = sigsyaml.UnmarshalStrict(doc, &d)
			template = &d.Spec.Template
		case "StatefulSet":
			var s appsv1.StatefulSet
			err = sigsyaml.UnmarshalStrict(doc, &s)
			template = &s.Spec.Template
		case "DaemonSet":
			var d appsv1.DaemonSet
			err = sigsyaml.UnmarshalStrict(doc, &d)
			template = &d.Spec.Template
		case "Job":
			var j batchv1.Job
			err = sigsyaml.UnmarshalStrict(doc, &j)
			template = &j.Spec.Template
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %v", o.Kind, o.Metadata.Name, err)
		}
		if template != nil {
			namespace := o.Metadata.Namespace
			if namespace == "" {
				namespace = "default"
			}
			pods = append(pods, pod{file, o.Kind, o.Metadata.Name, namespace, *template})
		}
	}
	return levels, pods, nil
}
