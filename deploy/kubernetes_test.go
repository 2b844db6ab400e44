package deploy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// decoder decodes the kinds the manifests may use, strictly: an unknown
// or duplicate field is an error, as is a kind outside the scheme.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, batchv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// decodeManifests decodes every YAML document of data; errors name the
// document by its position.
func decodeManifests(name string, data []byte) ([]runtime.Object, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []runtime.Object
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs, nil
		} else if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, _, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			return nil, &manifestError{name, i, err}
		}
		objs = append(objs, obj)
	}
}

type manifestError struct {
	file string
	doc  int
	err  error
}

func (e *manifestError) Error() string {
	return e.file + ": document " + strconv.Itoa(e.doc) + ": " + e.err.Error()
}

// manifests is every object of deploy/kubernetes/*.yaml.
func manifests(t *testing.T) []runtime.Object {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("kubernetes", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in kubernetes/: %v", err)
	}
	var all []runtime.Object
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := decodeManifests(f, data)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, objs...)
	}
	return all
}

// A misspelt field, a field at the wrong level, a field given twice and a
// kind that does not exist each fail the strict decoding: without this a
// typo would make Kubernetes drop the field (kubectl apply warns at most).
func TestStrictDecodingRejectsTypos(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("kubernetes", "sweep.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, c := range []struct{ name, old, new, want string }{
		{"misspelt", "    imagePullPolicy: IfNotPresent", "    imagePulPolicy: IfNotPresent", `unknown field "spec.template.spec.containers[0].imagePulPolicy"`},
		{"wrong level", "  completionMode: Indexed", "  template_mode: Indexed", `unknown field "spec.template_mode"`},
		{"twice", "  parallelism: 4 ", "  parallelism: 4\n  parallelism: 2 ", `key "parallelism" already set`},
		{"kind", "kind: ConfigMap", "kind: ConfigMapp", `no kind "ConfigMapp"`},
	} {
		if !strings.Contains(text, c.old) {
			t.Fatalf("%s: sweep.yaml has no %q to change", c.name, c.old)
		}
		_, err := decodeManifests("sweep.yaml", []byte(strings.Replace(text, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (%q → %q): error %v, want one with %q", c.name, c.old, c.new, err, c.want)
		}
	}
}

// podSpecs is every pod template of the manifests, by workload name.
func podSpecs(objs []runtime.Object) map[string]*corev1.PodSpec {
	specs := map[string]*corev1.PodSpec{}
	for _, o := range objs {
		switch o := o.(type) {
		case *batchv1.Job:
			specs["Job/"+o.Name] = &o.Spec.Template.Spec
		case *corev1.Pod:
			specs["Pod/"+o.Name] = &o.Spec
		}
	}
	return specs
}

// Every manifest decodes strictly; every container pulls its image only
// when missing and has a memory limit; the claims and config maps that
// volumes name are defined.
func TestManifestsWouldRun(t *testing.T) {
	objs := manifests(t)
	claims, configMaps := map[string]bool{}, map[string]bool{}
	for _, o := range objs {
		switch o := o.(type) {
		case *corev1.PersistentVolumeClaim:
			claims[o.Name] = true
		case *corev1.ConfigMap:
			configMaps[o.Name] = true
		}
	}
	specs := podSpecs(objs)
	if len(specs) == 0 {
		t.Fatal("no workloads")
	}
	for name, spec := range specs {
		for _, c := range slices.Concat(spec.InitContainers, spec.Containers) {
			if c.ImagePullPolicy != corev1.PullIfNotPresent {
				t.Errorf("%s container %s: imagePullPolicy %q, want IfNotPresent", name, c.Name, c.ImagePullPolicy)
			}
			if _, ok := c.Resources.Limits[corev1.ResourceMemory]; !ok {
				t.Errorf("%s container %s: no memory limit", name, c.Name)
			}
		}
		for _, v := range spec.Volumes {
			if pvc := v.PersistentVolumeClaim; pvc != nil && !claims[pvc.ClaimName] {
				t.Errorf("%s volume %s: claim %q is not defined", name, v.Name, pvc.ClaimName)
			}
			if cm := v.ConfigMap; cm != nil && !configMaps[cm.Name] {
				t.Errorf("%s volume %s: config map %q is not defined", name, v.Name, cm.Name)
			}
		}
	}
}

// headroom is how far a memory limit must stay above the Go soft limit of
// the process under it: the soft limit counts the heap and runtime, not
// everything, and a live heap above it is not collected away.
const headroom = 1.25

// softLimit is the Go soft limit schedsim runs under in container c, in
// bytes: GOMEMLIMIT, else the sweep's own 1 GiB per worker (--workers, else
// the CPU limit), else none (0).
func softLimit(t *testing.T, c corev1.Container) int64 {
	for _, e := range c.Env {
		if e.Name == "GOMEMLIMIT" {
			return parseGoMemLimit(t, e.Value)
		}
	}
	if len(c.Args) == 0 || c.Args[0] != "sweep" {
		return 0
	}
	workers := int64(0)
	if i := slices.Index(c.Args, "--workers"); i >= 0 && i+1 < len(c.Args) {
		n, err := strconv.ParseInt(c.Args[i+1], 10, 64)
		if err != nil {
			t.Fatalf("container %s: --workers %q", c.Name, c.Args[i+1])
		}
		workers = n
	} else if cpu, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
		workers = max(1, cpu.Value())
	} else {
		t.Fatalf("container %s: a sweep with neither --workers nor a CPU limit has a soft limit of the node's CPUs", c.Name)
	}
	return workers << 30
}

// parseGoMemLimit reads GOMEMLIMIT as the Go runtime does: a number of
// bytes with an optional B, KiB, MiB, GiB or TiB suffix.
func parseGoMemLimit(t *testing.T, v string) int64 {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil {
				t.Fatalf("GOMEMLIMIT=%q: %v", v, err)
			}
			return n << u.shift
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("GOMEMLIMIT=%q: want bytes with an optional B, KiB, MiB, GiB or TiB suffix", v)
	}
	return n
}

// The memory limit of every schedsim container covers its Go soft limit
// with headroom, and the request is the limit (a pod is not evicted for
// using what it was promised).
func TestMemoryLimitsCoverSoftLimits(t *testing.T) {
	checked := 0
	for name, spec := range podSpecs(manifests(t)) {
		for _, c := range slices.Concat(spec.InitContainers, spec.Containers) {
			if !strings.HasPrefix(c.Image, "schedsim:") {
				continue
			}
			soft := softLimit(t, c)
			limit := c.Resources.Limits[corev1.ResourceMemory]
			if soft > 0 {
				checked++
				if want := resource.NewQuantity(int64(float64(soft)*headroom), resource.BinarySI); limit.Cmp(*want) < 0 {
					t.Errorf("%s container %s: memory limit %s under %.2f × the soft limit %s = %s", name, c.Name,
						limit.String(), headroom, resource.NewQuantity(soft, resource.BinarySI), want)
				}
			}
			if req, ok := c.Resources.Requests[corev1.ResourceMemory]; ok && c.Args[0] == "sweep" && req.Cmp(limit) != 0 {
				t.Errorf("%s container %s: memory request %s, limit %s: want equal", name, c.Name, req.String(), limit.String())
			}
		}
	}
	if checked == 0 {
		t.Error("no schedsim container has a soft limit to check")
	}
}

// The traces Job copies the image's traces onto the claim, into the
// directory the experiment reads them from, and marks them complete; the
// sweep's pods wait for that mark on the same claim.
func TestTracesCopiedOntoTheVolume(t *testing.T) {
	objs := manifests(t)
	specs := podSpecs(objs)
	copyJob, sweep := specs["Job/schedsim-traces"], specs["Job/schedsim-sweep"]
	if copyJob == nil || sweep == nil {
		t.Fatalf("want Jobs schedsim-traces and schedsim-sweep, have %v", slices.Sorted(maps.Keys(specs)))
	}
	var experiment string
	for _, o := range objs {
		if cm, ok := o.(*corev1.ConfigMap); ok && cm.Name == "schedsim-experiment" {
			experiment = cm.Data["experiment.yaml"]
		}
	}
	var spec struct {
		Traces []struct{ Path string }
	}
	if err := yaml.Unmarshal([]byte(experiment), &spec); err != nil || len(spec.Traces) == 0 {
		t.Fatalf("the ConfigMap's experiment.yaml: %v, traces %v", err, spec.Traces)
	}
	script := strings.Join(slices.Concat(copyJob.Containers[0].Command, copyJob.Containers[0].Args), " ")
	wait := strings.Join(slices.Concat(sweep.InitContainers[0].Command, sweep.InitContainers[0].Args), " ")
	for _, tr := range spec.Traces {
		dir := filepath.Dir(tr.Path)
		if !strings.Contains(script, "mkdir -p "+dir) || !strings.Contains(script, dir+"/.complete") {
			t.Errorf("the traces Job does not fill %s (trace %s) and mark it complete:\n%s", dir, tr.Path, script)
		}
		if !strings.Contains(wait, dir+"/.complete") {
			t.Errorf("the sweep's init container does not wait for %s/.complete:\n%s", dir, wait)
		}
	}
	mount := func(spec *corev1.PodSpec, c corev1.Container) string {
		for _, m := range c.VolumeMounts {
			for _, v := range spec.Volumes {
				if v.Name == m.Name && v.PersistentVolumeClaim != nil {
					return v.PersistentVolumeClaim.ClaimName + ":" + m.MountPath
				}
			}
		}
		return ""
	}
	copyMount, waitMount, sweepMount := mount(copyJob, copyJob.Containers[0]), mount(sweep, sweep.InitContainers[0]), mount(sweep, sweep.Containers[0])
	if copyMount == "" || copyMount != waitMount || copyMount != sweepMount {
		t.Errorf("claim:mountPath of the traces Job %q, the sweep's wait %q and sweep %q: want one", copyMount, waitMount, sweepMount)
	}
}
