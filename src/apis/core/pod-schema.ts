// Pod (core v1) schema as Kubernetes v1.32 has it: containers, the pod spec with its scheduling and security
// settings, the pod status, and the PodTemplateSpec that workloads embed. Field numbers are Kubernetes'.
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector, LocalObjectReference } from '../meta/v1.ts';
import { withProto, inlined } from './schema-helpers.ts';
import { Volume, ObjectFieldSelector, ResourceFieldSelector } from './volume-schema.ts';
import { NodeSelector, NodeSelectorTerm } from './persistentvolume-common.ts';

const CANNOT_UPDATE = 'Cannot be updated.';
const LOCAL_NAME = 'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://platform.io/docs/concepts/overview/working-with-objects/names/#names';

// ---- containers ----

export const ContainerPort = S.object({
  name: S.string({ proto: 1, description: 'If specified, this must be an IANA_SVC_NAME and unique within the pod. Each named port in a pod must have a unique name. Name for the port that can be referred to by services.' }),
  hostPort: S.int32({ proto: 2, description: 'Number of port to expose on the host. If specified, this must be a valid port number, 0 < x < 65536. If HostNetwork is specified, this must match ContainerPort. Most containers do not need this.' }),
  containerPort: S.int32({ proto: 3, description: "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536." }),
  protocol: S.string({ proto: 4, default: 'TCP', description: 'Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".' }),
  hostIP: S.string({ proto: 5, description: 'What host IP to bind the external port to.' }),
}, { required: ['containerPort'], ref: 'core.v1.ContainerPort', description: 'ContainerPort represents a network port in a single container.' });

const ConfigMapKeySelector = S.object({
  name: inlined(S.string({ proto: 1, default: '', description: LOCAL_NAME }), 1),
  key: S.string({ proto: 2, description: 'The key to select.' }),
  optional: S.bool({ proto: 3, description: 'Specify whether the ConfigMap or its key must be defined' }),
}, { atomic: true, required: ['key'], ref: 'core.v1.ConfigMapKeySelector', description: 'Selects a key from a ConfigMap.' });

const SecretKeySelector = S.object({
  name: inlined(S.string({ proto: 1, default: '', description: LOCAL_NAME }), 1),
  key: S.string({ proto: 2, description: 'The key of the secret to select from.  Must be a valid secret key.' }),
  optional: S.bool({ proto: 3, description: 'Specify whether the Secret or its key must be defined' }),
}, { atomic: true, required: ['key'], ref: 'core.v1.SecretKeySelector', description: 'SecretKeySelector selects a key of a Secret.' });

const EnvVarSource = S.object({
  fieldRef: withProto(ObjectFieldSelector, 1),
  resourceFieldRef: withProto(ResourceFieldSelector, 2),
  configMapKeyRef: withProto(ConfigMapKeySelector, 3),
  secretKeyRef: withProto(SecretKeySelector, 4),
}, { ref: 'core.v1.EnvVarSource', description: 'EnvVarSource represents a source for the value of an EnvVar.' });

export const EnvVar = S.object({
  name: S.string({ proto: 1, description: 'Name of the environment variable. Must be a C_IDENTIFIER.' }),
  value: S.string({ proto: 2, description: 'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless of whether the variable exists or not. Defaults to "".' }),
  valueFrom: withProto(EnvVarSource, 3),
}, { required: ['name'], ref: 'core.v1.EnvVar', description: 'EnvVar represents an environment variable present in a Container.' });

const ConfigMapEnvSource = S.object({
  name: inlined(S.string({ proto: 1, default: '', description: LOCAL_NAME }), 1),
  optional: S.bool({ proto: 2, description: 'Specify whether the ConfigMap must be defined' }),
}, { ref: 'core.v1.ConfigMapEnvSource', description: "ConfigMapEnvSource selects a ConfigMap to populate the environment variables with. The contents of the target ConfigMap's Data field will represent the key-value pairs as environment variables." });

const SecretEnvSource = S.object({
  name: inlined(S.string({ proto: 1, default: '', description: LOCAL_NAME }), 1),
  optional: S.bool({ proto: 2, description: 'Specify whether the Secret must be defined' }),
}, { ref: 'core.v1.SecretEnvSource', description: "SecretEnvSource selects a Secret to populate the environment variables with. The contents of the target Secret's Data field will represent the key-value pairs as environment variables." });

const EnvFromSource = S.object({
  prefix: S.string({ proto: 1, description: 'An optional identifier to prepend to each key in the ConfigMap. Must be a C_IDENTIFIER.' }),
  configMapRef: withProto(ConfigMapEnvSource, 2),
  secretRef: withProto(SecretEnvSource, 3),
}, { ref: 'core.v1.EnvFromSource', description: 'EnvFromSource represents the source of a set of ConfigMaps or Secrets' });

const ResourceClaim = S.object({
  name: S.string({ proto: 1, description: 'Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used. It makes that resource available inside a container.' }),
  request: S.string({ proto: 2, description: 'Request is the name chosen for a request in the referenced claim. If empty, everything from the claim is made available, otherwise only the result of this request.' }),
}, { required: ['name'], ref: 'core.v1.ResourceClaim', description: 'ResourceClaim references one entry in PodSpec.ResourceClaims.' });

export const ResourceRequirements = S.object({
  limits: S.map(S.quantity(), { proto: 1, description: 'Limits describes the maximum amount of compute resources allowed. More info: https://platform.io/docs/concepts/configuration/manage-resources-containers/' }),
  requests: S.map(S.quantity(), { proto: 2, description: 'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://platform.io/docs/concepts/configuration/manage-resources-containers/' }),
  claims: S.list(ResourceClaim, { proto: 3, listType: 'map', listMapKeys: ['name'], description: 'Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container. This is an alpha field and requires enabling the DynamicResourceAllocation feature gate. This field is immutable. It can only be set for containers.' }),
}, { ref: 'core.v1.ResourceRequirements', description: 'ResourceRequirements describes the compute resource requirements.' });

const ContainerResizePolicy = S.object({
  resourceName: S.string({ proto: 1, description: 'Name of the resource to which this resource resize policy applies. Supported values: cpu, memory.' }),
  restartPolicy: S.string({ proto: 2, description: 'Restart policy to apply when specified resource is resized. If not specified, it defaults to NotRequired.' }),
}, { required: ['resourceName', 'restartPolicy'], ref: 'core.v1.ContainerResizePolicy', description: 'ContainerResizePolicy represents resource resize policy for the container.' });

export const VolumeMount = S.object({
  name: S.string({ proto: 1, description: 'This must match the Name of a Volume.' }),
  readOnly: S.bool({ proto: 2, description: 'Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.' }),
  recursiveReadOnly: S.string({ proto: 7, description: 'RecursiveReadOnly specifies whether read-only mounts should be handled recursively. If ReadOnly is false, this field has no meaning and must be unspecified. If ReadOnly is true, and this field is set to Disabled, the mount is not made recursively read-only.  If this field is set to IfPossible, the mount is made recursively read-only, if it is supported by the container runtime.  If this field is set to Enabled, the mount is made recursively read-only if it is supported by the container runtime, otherwise the pod will not be started and an error will be generated to indicate the reason. If this field is set to IfPossible or Enabled, MountPropagation must be set to None (or be unspecified, which defaults to None). If this field is not specified, it is treated as an equivalent of Disabled.' }),
  mountPath: S.string({ proto: 3, description: "Path within the container at which the volume should be mounted.  Must not contain ':'." }),
  subPath: S.string({ proto: 4, description: 'Path within the volume from which the container\'s volume should be mounted. Defaults to "" (volume\'s root).' }),
  mountPropagation: S.string({ proto: 5, description: 'mountPropagation determines how mounts are propagated from the host to container and the other way around. When not set, MountPropagationNone is used. This field is beta in 1.10. When RecursiveReadOnly is set to IfPossible or to Enabled, MountPropagation must be None or unspecified (which defaults to None).' }),
  subPathExpr: S.string({ proto: 6, description: 'Expanded path within the volume from which the container\'s volume should be mounted. Behaves similarly to SubPath but environment variable references $(VAR_NAME) are expanded using the container\'s environment. Defaults to "" (volume\'s root). SubPathExpr and SubPath are mutually exclusive.' }),
}, { required: ['name', 'mountPath'], ref: 'core.v1.VolumeMount', description: 'VolumeMount describes a mounting of a Volume within a container.' });

const VolumeDevice = S.object({
  name: S.string({ proto: 1, description: 'name must match the name of a persistentVolumeClaim in the pod' }),
  devicePath: S.string({ proto: 2, description: 'devicePath is the path inside of the container that the device will be mapped to.' }),
}, { required: ['name', 'devicePath'], ref: 'core.v1.VolumeDevice', description: 'volumeDevice describes a mapping of a raw block device within a container.' });

const ExecAction = S.object({
  command: S.list(S.string(), { proto: 1, listType: 'atomic', description: "Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem. The command is simply exec'd, it is not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use a shell, you need to explicitly call out to that shell. Exit status of 0 is treated as live/healthy and non-zero is unhealthy." }),
}, { ref: 'core.v1.ExecAction', description: 'ExecAction describes a "run in container" action.' });

const HTTPHeader = S.object({
  name: S.string({ proto: 1, description: 'The header field name. This will be canonicalized upon output, so case-variant names will be understood as the same header.' }),
  value: S.string({ proto: 2, description: 'The header field value' }),
}, { required: ['name', 'value'], ref: 'core.v1.HTTPHeader', description: 'HTTPHeader describes a custom header to be used in HTTP probes' });

const HTTPGetAction = S.object({
  path: S.string({ proto: 1, description: 'Path to access on the HTTP server.' }),
  port: S.intOrString({ proto: 2, description: 'Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.' }),
  host: S.string({ proto: 3, description: 'Host name to connect to, defaults to the pod IP. You probably want to set "Host" in httpHeaders instead.' }),
  scheme: S.string({ proto: 4, description: 'Scheme to use for connecting to the host. Defaults to HTTP.' }),
  httpHeaders: S.list(HTTPHeader, { proto: 5, listType: 'atomic', description: 'Custom headers to set in the request. HTTP allows repeated headers.' }),
}, { required: ['port'], ref: 'core.v1.HTTPGetAction', description: 'HTTPGetAction describes an action based on HTTP Get requests.' });

const TCPSocketAction = S.object({
  port: S.intOrString({ proto: 1, description: 'Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.' }),
  host: S.string({ proto: 2, description: 'Optional: Host name to connect to, defaults to the pod IP.' }),
}, { required: ['port'], ref: 'core.v1.TCPSocketAction', description: 'TCPSocketAction describes an action based on opening a socket' });

const GRPCAction = S.object({
  port: S.int32({ proto: 1, description: 'Port number of the gRPC service. Number must be in the range 1 to 65535.' }),
  service: S.string({ proto: 2, default: '', description: 'Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md). If this is not specified, the default behavior is defined by gRPC.' }),
}, { required: ['port'], ref: 'core.v1.GRPCAction', description: 'GRPCAction specifies an action involving a GRPC service.' });

const SleepAction = S.object({
  seconds: S.int64({ proto: 1, description: 'Seconds is the number of seconds to sleep.' }),
}, { required: ['seconds'], ref: 'core.v1.SleepAction', description: 'SleepAction describes a "sleep" action.' });

export const Probe = S.object({
  // exec, httpGet, tcpSocket and grpc are Go's inlined ProbeHandler (field 1 of Probe).
  exec: inlined(withProto(ExecAction, 1), 1),
  httpGet: inlined(withProto(HTTPGetAction, 2), 1),
  tcpSocket: inlined(withProto(TCPSocketAction, 3), 1),
  grpc: inlined(withProto(GRPCAction, 4), 1),
  initialDelaySeconds: S.int32({ proto: 2, description: 'Number of seconds after the container has started before liveness probes are initiated. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes' }),
  timeoutSeconds: S.int32({ proto: 3, description: 'Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes' }),
  periodSeconds: S.int32({ proto: 4, description: 'How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.' }),
  successThreshold: S.int32({ proto: 5, description: 'Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.' }),
  failureThreshold: S.int32({ proto: 6, description: 'Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1.' }),
  terminationGracePeriodSeconds: S.int64({ proto: 7, description: "Optional duration in seconds the pod needs to terminate gracefully upon probe failure. If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this value overrides the value provided by the pod spec. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset." }),
}, { ref: 'core.v1.Probe', description: 'Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.' });

const LifecycleHandler = S.object({
  exec: withProto(ExecAction, 1),
  httpGet: withProto(HTTPGetAction, 2),
  tcpSocket: withProto(TCPSocketAction, 3),
  sleep: withProto(SleepAction, 4),
}, { ref: 'core.v1.LifecycleHandler', description: 'LifecycleHandler defines a specific action that should be taken in a lifecycle hook. One and only one of the fields, except TCPSocket must be specified.' });

const Lifecycle = S.object({
  postStart: withProto(LifecycleHandler, 1),
  preStop: withProto(LifecycleHandler, 2),
}, { ref: 'core.v1.Lifecycle', description: 'Lifecycle describes actions that the management system should take in response to container lifecycle events. For the PostStart and PreStop lifecycle handlers, management of the container blocks until the action is complete, unless the container process fails, in which case the handler is aborted.' });

const Capabilities = S.object({
  add: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'Added capabilities' }),
  drop: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'Removed capabilities' }),
}, { ref: 'core.v1.Capabilities', description: 'Adds and removes POSIX capabilities from running containers.' });

const SELinuxOptions = S.object({
  user: S.string({ proto: 1, description: 'User is a SELinux user label that applies to the container.' }),
  role: S.string({ proto: 2, description: 'Role is a SELinux role label that applies to the container.' }),
  type: S.string({ proto: 3, description: 'Type is a SELinux type label that applies to the container.' }),
  level: S.string({ proto: 4, description: 'Level is SELinux level label that applies to the container.' }),
}, { ref: 'core.v1.SELinuxOptions', description: 'SELinuxOptions are the labels to be applied to the container' });

const WindowsSecurityContextOptions = S.object({
  gmsaCredentialSpecName: S.string({ proto: 1, description: 'GMSACredentialSpecName is the name of the GMSA credential spec to use.' }),
  gmsaCredentialSpec: S.string({ proto: 2, description: 'GMSACredentialSpec is where the GMSA admission webhook (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the GMSA credential spec named by the GMSACredentialSpecName field.' }),
  runAsUserName: S.string({ proto: 3, description: 'The UserName in Windows to run the entrypoint of the container process. Defaults to the user specified in image metadata if unspecified. May also be set in PodSecurityContext. If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.' }),
  hostProcess: S.bool({ proto: 4, description: "HostProcess determines if a container should be run as a 'Host Process' container. All of a Pod's containers must have the same effective HostProcess value (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers). In addition, if HostProcess is true then HostNetwork must also be set to true." }),
}, { ref: 'core.v1.WindowsSecurityContextOptions', description: 'WindowsSecurityContextOptions contain Windows-specific options and credentials.' });

const SeccompProfile = S.object({
  type: S.string({ proto: 1, description: 'type indicates which kind of seccomp profile will be applied. Valid options are: Localhost - a profile defined in a file on the node should be used. RuntimeDefault - the container runtime default profile should be used. Unconfined - no profile should be applied.' }),
  localhostProfile: S.string({ proto: 2, description: 'localhostProfile indicates a profile defined in a file on the node should be used. The profile must be preconfigured on the node to work. Must be a descending path, relative to the node agent\'s configured seccomp profile location. Must be set if type is "Localhost". Must NOT be set for any other type.' }),
}, { ref: 'core.v1.SeccompProfile', description: "SeccompProfile defines a pod/container's seccomp profile settings. Only one profile source may be set." });

const AppArmorProfile = S.object({
  type: S.string({ proto: 1, description: 'type indicates which kind of AppArmor profile will be applied. Valid options are: Localhost - a profile pre-loaded on the node. RuntimeDefault - the container runtime\'s default profile. Unconfined - no AppArmor enforcement.' }),
  localhostProfile: S.string({ proto: 2, description: 'localhostProfile indicates a profile loaded on the node that should be used. The profile must be preconfigured on the node to work. Must match the loaded name of the profile. Must be set if and only if type is "Localhost".' }),
}, { ref: 'core.v1.AppArmorProfile', description: "AppArmorProfile defines a pod or container's AppArmor settings." });

const SecurityContext = S.object({
  capabilities: withProto(Capabilities, 1),
  privileged: S.bool({ proto: 2, description: 'Run container in privileged mode. Processes in privileged containers are essentially equivalent to root on the host. Defaults to false. Note that this field cannot be set when spec.os.name is windows.' }),
  seLinuxOptions: withProto(SELinuxOptions, 3),
  windowsOptions: withProto(WindowsSecurityContextOptions, 10),
  runAsUser: S.int64({ proto: 4, description: 'The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified. May also be set in PodSecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence. Note that this field cannot be set when spec.os.name is windows.' }),
  runAsGroup: S.int64({ proto: 8, description: 'The GID to run the entrypoint of the container process. Uses runtime default if unset. May also be set in PodSecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence. Note that this field cannot be set when spec.os.name is windows.' }),
  runAsNonRoot: S.bool({ proto: 5, description: 'Indicates that the container must run as a non-root user. If true, the node agent will validate the image at runtime to ensure that it does not run as UID 0 (root) and fail to start the container if it does. If unset or false, no such validation will be performed. May also be set in PodSecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.' }),
  readOnlyRootFilesystem: S.bool({ proto: 6, description: 'Whether this container has a read-only root filesystem. Default is false. Note that this field cannot be set when spec.os.name is windows.' }),
  allowPrivilegeEscalation: S.bool({ proto: 7, description: 'AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process. This bool directly controls if the no_new_privs flag will be set on the container process. AllowPrivilegeEscalation is true always when the container is: 1) run as Privileged 2) has CAP_SYS_ADMIN Note that this field cannot be set when spec.os.name is windows.' }),
  procMount: S.string({ proto: 9, description: 'procMount denotes the type of proc mount to use for the containers. The default value is Default which uses the container runtime defaults for readonly paths and masked paths. This requires the ProcMountType feature flag to be enabled. Note that this field cannot be set when spec.os.name is windows.' }),
  seccompProfile: withProto(SeccompProfile, 11),
  appArmorProfile: withProto(AppArmorProfile, 12),
}, { ref: 'core.v1.SecurityContext', description: 'SecurityContext holds security configuration that will be applied to a container. Some fields are present in both SecurityContext and PodSecurityContext.  When both are set, the values in SecurityContext take precedence.' });

const CONTAINER_FIELDS = {
  name: S.string({ proto: 1, description: `Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). ${CANNOT_UPDATE}` }),
  image: S.string({ proto: 2, description: 'Container image name. More info: https://platform.io/docs/concepts/containers/images This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.' }),
  command: S.list(S.string(), { proto: 3, listType: 'atomic', description: "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. If a variable cannot be resolved, the reference in the input string will be unchanged. Cannot be updated. More info: https://platform.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell" }),
  args: S.list(S.string(), { proto: 4, listType: 'atomic', description: "Arguments to the entrypoint. The container image's CMD is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. If a variable cannot be resolved, the reference in the input string will be unchanged. Cannot be updated. More info: https://platform.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell" }),
  workingDir: S.string({ proto: 5, description: `Container's working directory. If not specified, the container runtime's default will be used, which might be configured in the container image. ${CANNOT_UPDATE}` }),
  ports: S.list(ContainerPort, { proto: 6, listType: 'map', listMapKeys: ['containerPort', 'protocol'], patchMergeKey: 'containerPort', patchStrategy: 'merge', description: 'List of ports to expose from the container. Not specifying a port here DOES NOT prevent that port from being exposed. Any port which is listening on the default "0.0.0.0" address inside a container will be accessible from the network. Modifying this array with strategic merge patch may corrupt the data. For more information See https://issues.svc.io/108255. Cannot be updated.' }),
  envFrom: S.list(EnvFromSource, { proto: 19, listType: 'atomic', description: 'List of sources to populate environment variables in the container. The keys defined within a source must be a C_IDENTIFIER. All invalid keys will be reported as an event when the container is starting. When a key exists in multiple sources, the value associated with the last source will take precedence. Values defined by an Env with a duplicate key will take precedence. Cannot be updated.' }),
  env: S.list(EnvVar, { proto: 7, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'List of environment variables to set in the container. Cannot be updated.' }),
  resources: withProto(ResourceRequirements, 8),
  resizePolicy: S.list(ContainerResizePolicy, { proto: 23, listType: 'atomic', description: 'Resources resize policy for the container.' }),
  restartPolicy: S.string({ proto: 24, description: 'RestartPolicy defines the restart behavior of individual containers in a pod. This field may only be set for init containers, and the only allowed value is "Always". For non-init containers or when this field is not specified, the restart behavior is defined by the Pod\'s restart policy and the container type. Setting the RestartPolicy as "Always" for the init container will have the following effect: this init container will be continually restarted on exit until all regular containers have terminated. Once all regular containers have completed, all init containers with restartPolicy "Always" will be shut down.' }),
  volumeMounts: S.list(VolumeMount, { proto: 9, listType: 'map', listMapKeys: ['mountPath'], patchMergeKey: 'mountPath', patchStrategy: 'merge', description: "Pod volumes to mount into the container's filesystem. Cannot be updated." }),
  volumeDevices: S.list(VolumeDevice, { proto: 21, listType: 'map', listMapKeys: ['devicePath'], patchMergeKey: 'devicePath', patchStrategy: 'merge', description: 'volumeDevices is the list of block devices to be used by the container.' }),
  livenessProbe: withProto(Probe, 10),
  readinessProbe: withProto(Probe, 11),
  startupProbe: withProto(Probe, 22),
  lifecycle: withProto(Lifecycle, 12),
  terminationMessagePath: S.string({ proto: 13, description: "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem. Message written is intended to be brief final status, such as an assertion failure message. Will be truncated by the node if greater than 4096 bytes. The total message length across all containers will be limited to 12kb. Defaults to /dev/termination-log. Cannot be updated." }),
  terminationMessagePolicy: S.string({ proto: 20, description: 'Indicate how the termination message should be populated. File will use the contents of terminationMessagePath to populate the container status message on both success and failure. FallbackToLogsOnError will use the last chunk of container log output if the termination message file is empty and the container exited with an error. The log output is limited to 2048 bytes or 80 lines, whichever is smaller. Defaults to File. Cannot be updated.' }),
  imagePullPolicy: S.string({ proto: 14, description: 'Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More info: https://platform.io/docs/concepts/containers/images#updating-images' }),
  securityContext: withProto(SecurityContext, 15),
  stdin: S.bool({ proto: 16, description: 'Whether this container should allocate a buffer for stdin in the container runtime. If this is not set, reads from stdin in the container will always result in EOF. Default is false.' }),
  stdinOnce: S.bool({ proto: 17, description: 'Whether the container runtime should close the stdin channel after it has been opened by a single attach. When stdin is true the stdin stream will remain open across multiple attach sessions. If stdinOnce is set to true, stdin is opened on container start, is empty until the first client attaches to stdin, and then remains open and accepts data until the client disconnects, at which time stdin is closed and remains closed until the container is restarted. If this flag is false, a container processes that reads from stdin will never receive an EOF. Default is false' }),
  tty: S.bool({ proto: 18, description: "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true. Default is false." }),
};

export const Container = S.object(CONTAINER_FIELDS, { required: ['name'], ref: 'core.v1.Container', description: 'A single application container that you want to run within a pod.' });

/** Go inlines EphemeralContainerCommon (field 1 of EphemeralContainer): every container field travels in it. */
const EPHEMERAL_COMMON = Object.fromEntries(Object.entries(CONTAINER_FIELDS).map(([k, v]) => [k, inlined(v, 1)])) as typeof CONTAINER_FIELDS;

const EphemeralContainer = S.object({
  ...EPHEMERAL_COMMON,
  targetContainerName: S.string({ proto: 2, description: 'If set, the name of the container from PodSpec that this ephemeral container targets. The ephemeral container will be run in the namespaces (IPC, PID, etc) of this container. If not set then the ephemeral container uses the namespaces configured in the Pod spec. The container runtime must implement support for this feature. If the runtime does not support namespace targeting then the result of setting this field is undefined.' }),
}, { required: ['name'], ref: 'core.v1.EphemeralContainer', description: 'An EphemeralContainer is a temporary container that you may add to an existing Pod for user-initiated activities such as debugging. Ephemeral containers have no resource or scheduling guarantees, and they will not be restarted when they exit or when a Pod is removed or restarted. To add an ephemeral container, use the ephemeralcontainers subresource of an existing Pod. Ephemeral containers may not be removed or restarted.' });

// ---- scheduling ----

const PreferredSchedulingTerm = S.object({
  weight: S.int32({ proto: 1, description: 'Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.' }),
  preference: withProto(NodeSelectorTerm, 2),
}, { required: ['weight', 'preference'], ref: 'core.v1.PreferredSchedulingTerm', description: "An empty preferred scheduling term matches all objects with implicit weight 0 (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op)." });

const NodeAffinity = S.object({
  requiredDuringSchedulingIgnoredDuringExecution: withProto(NodeSelector, 1),
  preferredDuringSchedulingIgnoredDuringExecution: S.list(PreferredSchedulingTerm, { proto: 2, listType: 'atomic', description: 'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions. The node that is most preferred is the one with the greatest sum of weights.' }),
}, { ref: 'core.v1.NodeAffinity', description: 'Node affinity is a group of node affinity scheduling rules.' });

const PodAffinityTerm = S.object({
  labelSelector: withProto(LabelSelector, 1),
  namespaces: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'namespaces specifies a static list of namespace names that the term applies to. The term is applied to the union of the namespaces listed in this field and the ones selected by namespaceSelector. null or empty namespaces list and null namespaceSelector means "this pod\'s namespace".' }),
  topologyKey: S.string({ proto: 3, description: 'This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces, where co-located is defined as running on a node whose value of the label with key topologyKey matches that of any node on which any of the selected pods is running. Empty topologyKey is not allowed.' }),
  namespaceSelector: withProto(LabelSelector, 4),
  matchLabelKeys: S.list(S.string(), { proto: 5, listType: 'atomic', description: "MatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration. The keys are used to lookup values from the incoming pod labels, those key-value labels are merged with `labelSelector` as `key in (value)` to select the group of existing pods which pods will be taken into consideration for the incoming pod's pod (anti) affinity. The same key is forbidden to exist in both matchLabelKeys and labelSelector. Also, matchLabelKeys cannot be set when labelSelector isn't set. This is a beta field and requires enabling MatchLabelKeysInPodAffinity feature gate (enabled by default)." }),
  mismatchLabelKeys: S.list(S.string(), { proto: 6, listType: 'atomic', description: "MismatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration. The keys are used to lookup values from the incoming pod labels, those key-value labels are merged with `labelSelector` as `key notin (value)`. The same key is forbidden to exist in both mismatchLabelKeys and labelSelector. Also, mismatchLabelKeys cannot be set when labelSelector isn't set. This is a beta field and requires enabling MatchLabelKeysInPodAffinity feature gate (enabled by default)." }),
}, { required: ['topologyKey'], ref: 'core.v1.PodAffinityTerm', description: 'Defines a set of pods (namely those matching the labelSelector relative to the given namespace(s)) that this pod should be co-located (affinity) or not co-located (anti-affinity) with, where co-located is defined as running on a node whose value of the label with key <topologyKey> matches that of any node on which a pod of the set of pods is running' });

const WeightedPodAffinityTerm = S.object({
  weight: S.int32({ proto: 1, description: 'weight associated with matching the corresponding podAffinityTerm, in the range 1-100.' }),
  podAffinityTerm: withProto(PodAffinityTerm, 2),
}, { required: ['weight', 'podAffinityTerm'], ref: 'core.v1.WeightedPodAffinityTerm', description: 'The weights of all of the matched WeightedPodAffinityTerm fields are added per-node to find the most preferred node(s)' });

const PodAffinity = S.object({
  requiredDuringSchedulingIgnoredDuringExecution: S.list(PodAffinityTerm, { proto: 1, listType: 'atomic', description: 'If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node. When there are multiple elements, the lists of nodes corresponding to each podAffinityTerm are intersected, i.e. all terms must be satisfied.' }),
  preferredDuringSchedulingIgnoredDuringExecution: S.list(WeightedPodAffinityTerm, { proto: 2, listType: 'atomic', description: 'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.' }),
}, { ref: 'core.v1.PodAffinity', description: 'Pod affinity is a group of inter pod affinity scheduling rules.' });

const PodAntiAffinity = S.object({
  requiredDuringSchedulingIgnoredDuringExecution: S.list(PodAffinityTerm, { proto: 1, listType: 'atomic', description: 'If the anti-affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node. When there are multiple elements, the lists of nodes corresponding to each podAffinityTerm are intersected, i.e. all terms must be satisfied.' }),
  preferredDuringSchedulingIgnoredDuringExecution: S.list(WeightedPodAffinityTerm, { proto: 2, listType: 'atomic', description: 'The scheduler will prefer to schedule pods to nodes that satisfy the anti-affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.' }),
}, { ref: 'core.v1.PodAntiAffinity', description: 'Pod anti affinity is a group of inter pod anti affinity scheduling rules.' });

const Affinity = S.object({
  nodeAffinity: withProto(NodeAffinity, 1),
  podAffinity: withProto(PodAffinity, 2),
  podAntiAffinity: withProto(PodAntiAffinity, 3),
}, { ref: 'core.v1.Affinity', description: 'Affinity is a group of affinity scheduling rules.' });

const Toleration = S.object({
  key: S.string({ proto: 1, description: 'Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.' }),
  operator: S.string({ proto: 2, description: "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal. Exists is equivalent to wildcard for value, so that a pod can tolerate all taints of a particular category." }),
  value: S.string({ proto: 3, description: 'Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.' }),
  effect: S.string({ proto: 4, description: 'Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.' }),
  tolerationSeconds: S.int64({ proto: 5, description: 'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict). Zero and negative values will be treated as 0 (evict immediately) by the system.' }),
}, { ref: 'core.v1.Toleration', description: 'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.' });

const HostAlias = S.object({
  ip: S.string({ proto: 1, description: 'IP address of the host file entry.' }),
  hostnames: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'Hostnames for the above IP address.' }),
}, { required: ['ip'], ref: 'core.v1.HostAlias', description: "HostAlias holds the mapping between IP and hostnames that will be injected as an entry in the pod's hosts file." });

const PodDNSConfig = S.object({
  nameservers: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'A list of DNS name server IP addresses. This will be appended to the base nameservers generated from DNSPolicy. Duplicated nameservers will be removed.' }),
  searches: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'A list of DNS search domains for host-name lookup. This will be appended to the base search paths generated from DNSPolicy. Duplicated search paths will be removed.' }),
  options: S.list(S.object({
    name: S.string({ proto: 1, description: "Name is this DNS resolver option's name. Required." }),
    value: S.string({ proto: 2, description: "Value is this DNS resolver option's value." }),
  }, { ref: 'core.v1.PodDNSConfigOption', description: 'PodDNSConfigOption defines DNS resolver options of a pod.' }), { proto: 3, listType: 'atomic', description: 'A list of DNS resolver options. This will be merged with the base options generated from DNSPolicy. Duplicated entries will be removed. Resolution options given in Options will override those that appear in the base DNSPolicy.' }),
}, { ref: 'core.v1.PodDNSConfig', description: 'PodDNSConfig defines the DNS parameters of a pod in addition to those generated from DNSPolicy.' });

const TopologySpreadConstraint = S.object({
  maxSkew: S.int32({ proto: 1, description: "MaxSkew describes the degree to which pods may be unevenly distributed. When `whenUnsatisfiable=DoNotSchedule`, it is the maximum permitted difference between the number of matching pods in the target topology and the global minimum. It's a required field. Default value is 1 and 0 is not allowed." }),
  topologyKey: S.string({ proto: 2, description: "TopologyKey is the key of node labels. Nodes that have a label with this key and identical values are considered to be in the same topology. It's a required field." }),
  whenUnsatisfiable: S.string({ proto: 3, description: "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint. - DoNotSchedule (default) tells the scheduler not to schedule it. - ScheduleAnyway tells the scheduler to schedule the pod in any location, but giving higher precedence to topologies that would help reduce the skew. It's a required field." }),
  labelSelector: withProto(LabelSelector, 4),
  minDomains: S.int32({ proto: 5, description: 'MinDomains indicates a minimum number of eligible domains. When the number of eligible domains with matching topology keys is less than minDomains, Pod Topology Spread treats "global minimum" as 0, and then the calculation of Skew is performed. If value is nil, the constraint behaves as if MinDomains is equal to 1. Valid values are integers greater than 0. When value is not nil, WhenUnsatisfiable must be DoNotSchedule.' }),
  nodeAffinityPolicy: S.string({ proto: 6, description: "NodeAffinityPolicy indicates how we will treat Pod's nodeAffinity/nodeSelector when calculating pod topology spread skew. Options are: - Honor: only nodes matching nodeAffinity/nodeSelector are included in the calculations. - Ignore: nodeAffinity/nodeSelector are ignored. All nodes are included in the calculations. If this value is nil, the behavior is equivalent to the Honor policy." }),
  nodeTaintsPolicy: S.string({ proto: 7, description: 'NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew. Options are: - Honor: nodes without taints, along with tainted nodes for which the incoming pod has a toleration, are included. - Ignore: node taints are ignored. All nodes are included. If this value is nil, the behavior is equivalent to the Ignore policy.' }),
  matchLabelKeys: S.list(S.string(), { proto: 8, listType: 'atomic', description: "MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn't set." }),
}, { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'], ref: 'core.v1.TopologySpreadConstraint', description: 'TopologySpreadConstraint specifies how to spread matching pods among the given topology.' });

// ---- pod security context and the rest of the spec ----

const PodSecurityContext = S.object({
  seLinuxOptions: withProto(SELinuxOptions, 1),
  windowsOptions: withProto(WindowsSecurityContextOptions, 8),
  runAsUser: S.int64({ proto: 2, description: 'The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified. May also be set in SecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence for that container. Note that this field cannot be set when spec.os.name is windows.' }),
  runAsGroup: S.int64({ proto: 6, description: 'The GID to run the entrypoint of the container process. Uses runtime default if unset. May also be set in SecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence for that container. Note that this field cannot be set when spec.os.name is windows.' }),
  runAsNonRoot: S.bool({ proto: 3, description: 'Indicates that the container must run as a non-root user. If true, the node agent will validate the image at runtime to ensure that it does not run as UID 0 (root) and fail to start the container if it does. If unset or false, no such validation will be performed. May also be set in SecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.' }),
  supplementalGroups: S.list(S.int64(), { proto: 4, listType: 'atomic', description: "A list of groups applied to the first process run in each container, in addition to the container's primary GID and fsGroup (if specified).  If the SupplementalGroupsPolicy feature is enabled, the supplementalGroupsPolicy field determines whether these are in addition to or instead of any group memberships defined in the container image. Note that this field cannot be set when spec.os.name is windows." }),
  supplementalGroupsPolicy: S.string({ proto: 12, description: 'Defines how supplemental groups of the first container processes are calculated. Valid values are "Merge" and "Strict". If not specified, "Merge" is used. (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled and the container runtime must implement support for this feature. Note that this field cannot be set when spec.os.name is windows.' }),
  fsGroup: S.int64({ proto: 5, description: 'A special supplemental group that applies to all containers in a pod. Some volume types allow the node agent to change the ownership of that volume to be owned by the pod: 1. The owning GID will be the FSGroup 2. The setgid bit is set (new files created in the volume will be owned by FSGroup) 3. The permission bits are OR\'d with rw-rw---- If unset, the node agent will not modify the ownership and permissions of any volume. Note that this field cannot be set when spec.os.name is windows.' }),
  sysctls: S.list(S.object({
    name: S.string({ proto: 1, description: 'Name of a property to set' }),
    value: S.string({ proto: 2, description: 'Value of a property to set' }),
  }, { required: ['name', 'value'], ref: 'core.v1.Sysctl', description: 'Sysctl defines a kernel parameter to be set' }), { proto: 7, listType: 'atomic', description: 'Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported sysctls (by the container runtime) might fail to launch. Note that this field cannot be set when spec.os.name is windows.' }),
  fsGroupChangePolicy: S.string({ proto: 9, description: 'fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod. This field will only apply to volume types which support fsGroup based ownership(and permissions). It will have no effect on ephemeral volume types such as: secret, configmaps and emptydir. Valid values are "OnRootMismatch" and "Always". If not specified, "Always" is used. Note that this field cannot be set when spec.os.name is windows.' }),
  seccompProfile: withProto(SeccompProfile, 10),
  appArmorProfile: withProto(AppArmorProfile, 11),
  seLinuxChangePolicy: S.string({ proto: 13, description: 'seLinuxChangePolicy defines how the container\'s SELinux label is applied to all volumes used by the Pod. It has no effect on nodes that do not support SELinux or to volumes does not support SELinux. Valid values are "MountOption" and "Recursive". "Recursive" means relabeling of all files on all Pod volumes by the container runtime. "MountOption" mounts all eligible Pod volumes with `-o context` mount option. Note that this field cannot be set when spec.os.name is windows.' }),
}, { ref: 'core.v1.PodSecurityContext', description: 'PodSecurityContext holds pod-level security attributes and common container settings. Some fields are also present in container.securityContext.  Field values of container.securityContext take precedence over field values of PodSecurityContext.' });

const PodResourceClaim = S.object({
  name: S.string({ proto: 1, description: 'Name uniquely identifies this resource claim inside the pod. This must be a DNS_LABEL.' }),
  resourceClaimName: S.string({ proto: 3, description: 'ResourceClaimName is the name of a ResourceClaim object in the same namespace as this pod. Exactly one of ResourceClaimName and ResourceClaimTemplateName must be set.' }),
  resourceClaimTemplateName: S.string({ proto: 4, description: 'ResourceClaimTemplateName is the name of a ResourceClaimTemplate object in the same namespace as this pod. The template will be used to create a new ResourceClaim, which will be bound to this pod. When this pod is deleted, the ResourceClaim will also be deleted. Exactly one of ResourceClaimName and ResourceClaimTemplateName must be set.' }),
}, { required: ['name'], ref: 'core.v1.PodResourceClaim', description: 'PodResourceClaim references exactly one ResourceClaim, either directly or by naming a ResourceClaimTemplate which is then turned into a ResourceClaim for the pod.' });

export const PodSpec = S.object({
  volumes: S.list(Volume, { proto: 1, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge,retainKeys', description: 'List of volumes that can be mounted by containers belonging to the pod. More info: https://platform.io/docs/concepts/storage/volumes' }),
  initContainers: S.list(Container, { proto: 20, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: "List of initialization containers belonging to the pod. Init containers are executed in order prior to containers being started. If any init container fails, the pod is considered to have failed and is handled according to its restartPolicy. The name for an init container or normal container must be unique among all containers. Init containers may not have Lifecycle actions, Readiness probes, Liveness probes, or Startup probes. Init containers cannot currently be added or removed. Cannot be updated. More info: https://platform.io/docs/concepts/workloads/pods/init-containers/" }),
  containers: S.list(Container, { proto: 2, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.' }),
  ephemeralContainers: S.list(EphemeralContainer, { proto: 34, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: "List of ephemeral containers run in this pod. Ephemeral containers may be run in an existing pod to perform user-initiated actions such as debugging. This list cannot be specified when creating a pod, and it cannot be modified by updating the pod spec. In order to add an ephemeral container to an existing pod, use the pod's ephemeralcontainers subresource." }),
  restartPolicy: S.string({ proto: 3, description: 'Restart policy for all containers within the pod. One of Always, OnFailure, Never. In some contexts, only a subset of those values may be permitted. Default to Always. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy' }),
  terminationGracePeriodSeconds: S.int64({ proto: 4, description: 'Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). If this value is nil, the default grace period will be used instead. Defaults to 30 seconds.' }),
  activeDeadlineSeconds: S.int64({ proto: 5, description: 'Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers. Value must be a positive integer.' }),
  dnsPolicy: S.string({ proto: 6, description: "Set DNS policy for the pod. Defaults to \"ClusterFirst\". Valid values are 'ClusterFirstWithHostNet', 'ClusterFirst', 'Default' or 'None'. DNS parameters given in DNSConfig will be merged with the policy selected with DNSPolicy. To have DNS options set along with hostNetwork, you have to specify DNS policy explicitly to 'ClusterFirstWithHostNet'." }),
  nodeSelector: S.map(S.string(), { proto: 7, atomic: true, description: "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://platform.io/docs/concepts/configuration/assign-pod-node/" }),
  serviceAccountName: S.string({ proto: 8, description: 'ServiceAccountName is the name of the ServiceAccount to use to run this pod. More info: https://platform.io/docs/tasks/configure-pod-container/configure-service-account/' }),
  serviceAccount: S.string({ proto: 9, description: 'DeprecatedServiceAccount is a deprecated alias for ServiceAccountName. Deprecated: Use serviceAccountName instead.' }),
  automountServiceAccountToken: S.bool({ proto: 21, description: 'AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.' }),
  nodeName: S.string({ proto: 10, description: 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the node agent for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://platform.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename' }),
  hostNetwork: S.bool({ proto: 11, description: "Host networking requested for this pod. Use the host's network namespace. If this option is set, the ports that will be used must be specified. Default to false." }),
  hostPID: S.bool({ proto: 12, description: "Use the host's pid namespace. Optional: Default to false." }),
  hostIPC: S.bool({ proto: 13, description: "Use the host's ipc namespace. Optional: Default to false." }),
  shareProcessNamespace: S.bool({ proto: 27, description: 'Share a single process namespace between all of the containers in a pod. When this is set containers will be able to view and signal processes from other containers in the same pod, and the first process in each container will not be assigned PID 1. HostPID and ShareProcessNamespace cannot both be set. Optional: Default to false.' }),
  securityContext: withProto(PodSecurityContext, 14),
  imagePullSecrets: S.list(LocalObjectReference, { proto: 15, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec. If specified, these secrets will be passed to individual puller implementations for them to use. More info: https://platform.io/docs/concepts/containers/images#specifying-imagepullsecrets-on-a-pod' }),
  hostname: S.string({ proto: 16, description: "Specifies the hostname of the Pod If not specified, the pod's hostname will be set to a system-defined value." }),
  subdomain: S.string({ proto: 17, description: 'If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>". If not specified, the pod will not have a domainname at all.' }),
  affinity: withProto(Affinity, 18),
  schedulerName: S.string({ proto: 19, description: 'If specified, the pod will be dispatched by specified scheduler. If not specified, the pod will be dispatched by default scheduler.' }),
  tolerations: S.list(Toleration, { proto: 22, listType: 'atomic', description: "If specified, the pod's tolerations." }),
  hostAliases: S.list(HostAlias, { proto: 23, listType: 'map', listMapKeys: ['ip'], patchMergeKey: 'ip', patchStrategy: 'merge', description: "HostAliases is an optional list of hosts and IPs that will be injected into the pod's hosts file if specified." }),
  priorityClassName: S.string({ proto: 24, description: 'If specified, indicates the pod\'s priority. "system-node-critical" and "system-cluster-critical" are two special keywords which indicate the highest priorities with the former being the highest priority. Any other name must be defined by creating a PriorityClass object with that name. If not specified, the pod priority will be default or zero if there is no default.' }),
  priority: S.int32({ proto: 25, description: 'The priority value. Various system components use this field to find the priority of the pod. When Priority Admission Controller is enabled, it prevents users from setting this field. The admission controller populates this field from PriorityClassName. The higher the value, the higher the priority.' }),
  dnsConfig: withProto(PodDNSConfig, 26),
  readinessGates: S.list(S.object({
    conditionType: S.string({ proto: 1, description: "ConditionType refers to a condition in the pod's condition list with matching type." }),
  }, { required: ['conditionType'], ref: 'core.v1.PodReadinessGate', description: 'PodReadinessGate contains the reference to a pod condition' }), { proto: 28, listType: 'atomic', description: 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.svc.io/enhancements/keps/sig-network/580-pod-readiness-gates' }),
  runtimeClassName: S.string({ proto: 29, description: 'RuntimeClassName refers to a RuntimeClass object in the node.svc.io group, which should be used to run this pod.  If no RuntimeClass resource matches the named class, the pod will not be run. If unset or empty, the "legacy" RuntimeClass will be used, which is an implicit class with an empty definition that uses the default runtime handler. More info: https://git.svc.io/enhancements/keps/sig-node/585-runtime-class' }),
  enableServiceLinks: S.bool({ proto: 30, description: "EnableServiceLinks indicates whether information about services should be injected into pod's environment variables, matching the syntax of Docker links. Optional: Defaults to true." }),
  preemptionPolicy: S.string({ proto: 31, description: 'PreemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.' }),
  overhead: S.map(S.quantity(), { proto: 32, description: 'Overhead represents the resource overhead associated with running a pod for a given RuntimeClass. This field will be autopopulated at admission time by the RuntimeClass admission controller. If the RuntimeClass admission controller is enabled, overhead must not be set in Pod create requests. More info: https://git.svc.io/enhancements/keps/sig-node/688-pod-overhead/README.md' }),
  topologySpreadConstraints: S.list(TopologySpreadConstraint, { proto: 33, listType: 'map', listMapKeys: ['topologyKey', 'whenUnsatisfiable'], patchMergeKey: 'topologyKey', patchStrategy: 'merge', description: 'TopologySpreadConstraints describes how a group of pods ought to spread across topology domains. Scheduler will schedule pods in a way which abides by the constraints. All topologySpreadConstraints are ANDed.' }),
  setHostnameAsFQDN: S.bool({ proto: 35, description: "If true the pod's hostname will be configured as the pod's FQDN, rather than the leaf name (the default). If a pod does not have FQDN, this has no effect. Default to false." }),
  os: S.object({
    name: S.string({ proto: 1, description: 'Name is the name of the operating system. The currently supported values are linux and windows. Additional value may be defined in future and can be one of: https://github.com/opencontainers/runtime-spec/blob/master/config.md#platform-specific-configuration Clients should expect to handle additional values and treat unrecognized values in this field as os: null' }),
  }, { proto: 36, required: ['name'], ref: 'core.v1.PodOS', description: 'PodOS defines the OS parameters of a pod.' }),
  hostUsers: S.bool({ proto: 37, description: "Use the host's user namespace. Optional: Default to true. If set to true or not present, the pod will be run in the host user namespace, useful for when the pod needs a feature only available to the host user namespace, such as loading a kernel module with CAP_SYS_MODULE. When set to false, a new userns is created for the pod. This field is alpha-level and is only honored by servers that enable the UserNamespacesSupport feature." }),
  schedulingGates: S.list(S.object({
    name: S.string({ proto: 1, description: 'Name of the scheduling gate. Each scheduling gate must have a unique name field.' }),
  }, { required: ['name'], ref: 'core.v1.PodSchedulingGate', description: 'PodSchedulingGate is associated to a Pod to guard its scheduling.' }), { proto: 38, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'SchedulingGates is an opaque list of values that if specified will block scheduling the pod. If schedulingGates is not empty, the pod will stay in the SchedulingGated state and the scheduler will not attempt to schedule the pod. SchedulingGates can only be set at pod creation time, and be removed only afterwards.' }),
  resourceClaims: S.list(PodResourceClaim, { proto: 39, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge,retainKeys', description: 'ResourceClaims defines which ResourceClaims must be allocated and reserved before the Pod is allowed to start. The resources will be made available to those containers which consume them by name. This is an alpha field and requires enabling the DynamicResourceAllocation feature gate. This field is immutable.' }),
  resources: withProto(ResourceRequirements, 40),
}, { required: ['containers'], ref: 'core.v1.PodSpec', description: 'PodSpec is a description of a pod.' });

export const PodTemplateSpec = S.object({
  metadata: withProto(ObjectMeta, 1),
  spec: withProto(PodSpec, 2),
}, { ref: 'core.v1.PodTemplateSpec', description: 'PodTemplateSpec describes the data a pod should have when created from a template' });

// ---- status ----

const ContainerState = S.object({
  waiting: S.object({
    reason: S.string({ proto: 1, description: '(brief) reason the container is not yet running.' }),
    message: S.string({ proto: 2, description: 'Message regarding why the container is not yet running.' }),
  }, { proto: 1, ref: 'core.v1.ContainerStateWaiting', description: 'ContainerStateWaiting is a waiting state of a container.' }),
  running: S.object({
    startedAt: S.time({ proto: 1, description: 'Time at which the container was last (re-)started' }),
  }, { proto: 2, ref: 'core.v1.ContainerStateRunning', description: 'ContainerStateRunning is a running state of a container.' }),
  terminated: S.object({
    exitCode: S.int32({ proto: 1, description: 'Exit status from the last termination of the container' }),
    signal: S.int32({ proto: 2, description: 'Signal from the last termination of the container' }),
    reason: S.string({ proto: 3, description: '(brief) reason from the last termination of the container' }),
    message: S.string({ proto: 4, description: 'Message regarding the last termination of the container' }),
    startedAt: S.time({ proto: 5, description: 'Time at which previous execution of the container started' }),
    finishedAt: S.time({ proto: 6, description: 'Time at which the container last terminated' }),
    containerID: S.string({ proto: 7, description: "Container's ID in the format '<type>://<container_id>'" }),
  }, { proto: 3, required: ['exitCode'], ref: 'core.v1.ContainerStateTerminated', description: 'ContainerStateTerminated is a terminated state of a container.' }),
}, { ref: 'core.v1.ContainerState', description: 'ContainerState holds a possible state of container. Only one of its members may be specified. If none of them is specified, the default one is ContainerStateWaiting.' });

const ContainerStatus = S.object({
  name: S.string({ proto: 1, description: 'Name is a DNS_LABEL representing the unique name of the container. Each container in a pod must have a unique name across all container types. Cannot be updated.' }),
  state: withProto(ContainerState, 2),
  lastState: withProto(ContainerState, 3),
  ready: S.bool({ proto: 4, description: 'Ready specifies whether the container is currently passing its readiness check. The value will change as readiness probes keep executing. If no readiness probes are specified, this field defaults to true once the container is fully started (see Started field).' }),
  restartCount: S.int32({ proto: 5, description: 'RestartCount holds the number of times the container has been restarted. The node agent makes an effort to always increment the value, but there are cases when the state may be lost due to node restarts and then the value may be reset to 0. The value is never negative.' }),
  image: S.string({ proto: 6, description: 'Image is the name of container image that the container is running. The container image may not match the image used in the PodSpec, as it may have been resolved by the runtime. More info: https://platform.io/docs/concepts/containers/images.' }),
  imageID: S.string({ proto: 7, description: "ImageID is the image ID of the container's image. The image ID may not match the image ID of the image used in the PodSpec, as it may have been resolved by the runtime." }),
  containerID: S.string({ proto: 8, description: "ContainerID is the ID of the container in the format '<type>://<container_id>'. Where type is a container runtime identifier, returned from Version call of CRI API (for example \"containerd\")." }),
  started: S.bool({ proto: 9, description: 'Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe. Initialized as false, becomes true after startupProbe is considered successful. Resets to false when the container is restarted, or if the node agent loses state temporarily. In both cases, startup probes will run again. Is always true when no startupProbe is defined and container is running and has passed the postStart lifecycle hook. The null value must be treated the same as false.' }),
  allocatedResources: S.map(S.quantity(), { proto: 10, description: 'AllocatedResources represents the compute resources allocated for this container by the node. The node agent sets this value to Container.Resources.Requests upon successful pod admission and after successfully admitting desired pod resize.' }),
  resources: withProto(ResourceRequirements, 11),
  volumeMounts: S.list(S.object({
    name: S.string({ proto: 1, description: 'Name corresponds to the name of the original VolumeMount.' }),
    mountPath: S.string({ proto: 2, description: 'MountPath corresponds to the original VolumeMount.' }),
    readOnly: S.bool({ proto: 3, description: 'ReadOnly corresponds to the original VolumeMount.' }),
    recursiveReadOnly: S.string({ proto: 4, description: 'RecursiveReadOnly must be set to Disabled, Enabled, or unspecified (for non-readonly mounts). An IfPossible value in the original VolumeMount must be translated to Disabled or Enabled, depending on the mount result.' }),
  }, { required: ['name', 'mountPath'], ref: 'core.v1.VolumeMountStatus', description: 'VolumeMountStatus shows status of volume mounts.' }), { proto: 12, listType: 'map', listMapKeys: ['mountPath'], patchMergeKey: 'mountPath', patchStrategy: 'merge', description: 'Status of volume mounts.' }),
  user: S.object({
    linux: S.object({
      uid: S.int64({ proto: 1, description: 'UID is the primary uid initially attached to the first process in the container' }),
      gid: S.int64({ proto: 2, description: 'GID is the primary gid initially attached to the first process in the container' }),
      supplementalGroups: S.list(S.int64(), { proto: 3, listType: 'atomic', description: 'SupplementalGroups are the supplemental groups initially attached to the first process in the container' }),
    }, { proto: 1, required: ['uid', 'gid'], ref: 'core.v1.LinuxContainerUser', description: 'LinuxContainerUser represents user identity information in Linux containers' }),
  }, { proto: 13, ref: 'core.v1.ContainerUser', description: 'ContainerUser represents user identity information' }),
  allocatedResourcesStatus: S.list(S.object({
    name: S.string({ proto: 1, description: 'Name of the resource. Must be unique within the pod and in case of non-DRA resource, match one of the resources from the pod spec. For DRA resources, the value must be "claim:<claim_name>/<request>".' }),
    resources: S.list(S.object({
      resourceID: S.string({ proto: 1, description: 'ResourceID is the unique identifier of the resource. See the ResourceID type for more information.' }),
      health: S.string({ proto: 2, description: 'Health of the resource. can be one of: Healthy, Unhealthy, Unknown.' }),
    }, { required: ['resourceID'], ref: 'core.v1.ResourceHealth', description: 'ResourceHealth represents the health of a resource. It has the latest device health information.' }), { proto: 2, listType: 'map', listMapKeys: ['resourceID'], description: 'List of unique resources health. Each element in the list contains an unique resource ID and its health.' }),
  }, { required: ['name'], ref: 'core.v1.ResourceStatus', description: 'ResourceStatus represents the status of a single resource allocated to a Pod.' }), { proto: 14, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'AllocatedResourcesStatus represents the status of various resources allocated for this Pod.' }),
}, { required: ['name', 'ready', 'restartCount', 'image', 'imageID'], ref: 'core.v1.ContainerStatus', description: 'ContainerStatus contains details for the current status of this container.' });

const PodCondition = S.object({
  type: S.string({ proto: 1, description: 'Type is the type of the condition. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions' }),
  status: S.string({ proto: 2, description: 'Status is the status of the condition. Can be True, False, Unknown. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions' }),
  lastProbeTime: S.time({ proto: 3, description: 'Last time we probed the condition.' }),
  lastTransitionTime: S.time({ proto: 4, description: 'Last time the condition transitioned from one status to another.' }),
  reason: S.string({ proto: 5, description: "Unique, one-word, CamelCase reason for the condition's last transition." }),
  message: S.string({ proto: 6, description: 'Human-readable message indicating details about last transition.' }),
}, { required: ['type', 'status'], ref: 'core.v1.PodCondition', description: 'PodCondition contains details for the current condition of this pod.' });

export const PodStatus = S.object({
  phase: S.string({ proto: 1, description: 'The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle. There are five possible phase values: Pending, Running, Succeeded, Failed and Unknown. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle#pod-phase' }),
  conditions: S.list(PodCondition, { proto: 2, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: 'Current service state of pod. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions' }),
  message: S.string({ proto: 3, description: 'A human readable message indicating details about why the pod is in this condition.' }),
  reason: S.string({ proto: 4, description: "A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'" }),
  nominatedNodeName: S.string({ proto: 11, description: 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node.' }),
  hostIP: S.string({ proto: 5, description: 'hostIP holds the IP address of the host to which the pod is assigned. Empty if the pod has not started yet. A pod can be assigned to a node that has a problem in the node agent which in turns mean that HostIP will not be updated even if there is a node is assigned to pod' }),
  hostIPs: S.list(S.object({
    ip: S.string({ proto: 1, description: 'IP is the IP address assigned to the host' }),
  }, { required: ['ip'], ref: 'core.v1.HostIP', description: 'HostIP represents a single IP address allocated to the host.' }), { proto: 16, listType: 'atomic', patchMergeKey: 'ip', patchStrategy: 'merge', description: 'hostIPs holds the IP addresses allocated to the host. If this field is specified, the first entry must match the hostIP field. This list is empty if the pod has not started yet.' }),
  podIP: S.string({ proto: 6, description: 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.' }),
  podIPs: S.list(S.object({
    ip: S.string({ proto: 1, description: 'IP is the IP address assigned to the pod' }),
  }, { required: ['ip'], ref: 'core.v1.PodIP', description: 'PodIP represents a single IP address allocated to the pod.' }), { proto: 12, listType: 'map', listMapKeys: ['ip'], patchMergeKey: 'ip', patchStrategy: 'merge', description: 'podIPs holds the IP addresses allocated to the pod. If this field is specified, the 0th entry must match the podIP field. Pods may be allocated at most 1 value for each of IPv4 and IPv6. This list is empty if no IPs have been allocated yet.' }),
  startTime: S.time({ proto: 7, description: 'RFC 3339 date and time at which the object was acknowledged by the node agent. This is before the node agent pulled the container image(s) for the pod.' }),
  initContainerStatuses: S.list(ContainerStatus, { proto: 10, listType: 'atomic', description: 'Statuses of init containers in this pod. The most recent successful non-restartable init container will have ready = true, the most recently started container will have startTime set. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-and-container-status' }),
  containerStatuses: S.list(ContainerStatus, { proto: 8, listType: 'atomic', description: 'Statuses of containers in this pod. Each container in the pod should have at most one status in this list, and all statuses should be for containers in the pod. More info: https://platform.io/docs/concepts/workloads/pods/pod-lifecycle#pod-and-container-status' }),
  qosClass: S.string({ proto: 9, description: 'The Quality of Service (QOS) classification assigned to the pod based on resource requirements See PodQOSClass type for available QOS classes More info: https://platform.io/docs/concepts/workloads/pods/pod-qos/#quality-of-service-classes' }),
  ephemeralContainerStatuses: S.list(ContainerStatus, { proto: 13, listType: 'atomic', description: 'Statuses for any ephemeral containers that have run in this pod. Each ephemeral container in the pod should have at most one status in this list, and all statuses should be for containers in the pod.' }),
  resize: S.string({ proto: 14, description: 'Status of resources resize desired for pod\'s containers. It is empty if no resources resize is pending. Any changes to container resources will automatically set this to "Proposed"' }),
  resourceClaimStatuses: S.list(S.object({
    name: S.string({ proto: 1, description: 'Name uniquely identifies this resource claim inside the pod. This must match the name of an entry in pod.spec.resourceClaims, which implies that the string must be a DNS_LABEL.' }),
    resourceClaimName: S.string({ proto: 2, description: 'ResourceClaimName is the name of the ResourceClaim that was generated for the Pod in the namespace of the Pod. If this is unset, then generating a ResourceClaim was not necessary. The pod.spec.resourceClaims entry can be ignored in this case.' }),
  }, { required: ['name'], ref: 'core.v1.PodResourceClaimStatus', description: 'PodResourceClaimStatus is stored in the PodStatus for each PodResourceClaim which references a ResourceClaimTemplate. It stores the generated name for the corresponding ResourceClaim.' }), { proto: 15, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge,retainKeys', description: 'Status of resource claims.' }),
}, { ref: 'core.v1.PodStatus', description: 'PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.' });

export const PodSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: withProto(PodSpec, 2),
  status: withProto(PodStatus, 3),
}, { ref: 'core.v1.Pod', description: 'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.' });

