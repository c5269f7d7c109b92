// MuJoCo's MJCF schema: for each element, the attributes and child elements MuJoCo's XML reader
// accepts (rows of MuJoCo's src/xml/generated/mjcf_table.inc, generated from src/xml/mjcf.schema,
// MuJoCo 3.x as of 2026-08; python mujoco 3.14 refuses exactly what is not here). `a`: the allowed
// attributes, space-separated; `c`: child elements; `r`: recursive (a <body> in a <body>, a
// <default> in a <default>); `one`: at most once in its parent. Data only: schema-check.ts walks a model against it.

export interface SchemaNode {
  n: string;
  a: string;
  r?: true;
  one?: true;
  c?: SchemaNode[];
}

export const MJCF_SCHEMA: SchemaNode = {
  n: 'mujoco',
  a: 'model',
  one: true,
  c: [
    {
      n: 'compiler',
      a: 'autolimits boundmass boundinertia settotalmass balanceinertia strippath coordinate angle fitaabb eulerseq meshdir texturedir discardvisual usethread fusestatic inertiafromgeom inertiagrouprange saveinertial assetdir alignfree conflict',
      c: [{ n: 'lengthrange', a: 'mode useexisting uselimit accel maxforce timeconst timestep inttotal interval tolrange', one: true }],
    },
    {
      n: 'option',
      a: 'timestep impratio tolerance ls_tolerance noslip_tolerance ccd_tolerance sleep_tolerance gravity wind magnetic density viscosity o_margin o_solref o_solimp o_friction integrator cone jacobian solver iterations ls_iterations noslip_iterations ccd_iterations sdf_iterations sdf_initpoints actuatorgroupdisable',
      c: [
        {
          n: 'flag',
          a: 'constraint equality frictionloss limit contact spring damper gravity clampctrl warmstart filterparent actuation refsafe sensor midphase eulerdamp autoreset nativeccd island multiccd override energy fwdinv invdiscrete sleep diagexact',
          one: true,
        },
      ],
    },
    {
      n: 'size',
      a: 'memory njmax nconmax nstack nuserdata nkey nuser_body nuser_jnt nuser_geom nuser_site nuser_cam nuser_tendon nuser_actuator nuser_sensor',
    },
    { n: 'statistic', a: 'meaninertia meanmass meansize extent center' },
    {
      n: 'visual',
      a: '',
      c: [
        {
          n: 'global',
          a: 'cameraid orthographic fovy ipd azimuth elevation linewidth glow offwidth offheight realtime ellipsoidinertia bvactive',
          one: true,
        },
        { n: 'quality', a: 'shadowsize offsamples numslices numstacks numquads', one: true },
        { n: 'headlight', a: 'ambient diffuse specular active', one: true },
        {
          n: 'map',
          a: 'stiffness stiffnessrot force torque alpha fogstart fogend znear zfar haze shadowclip shadowscale actuatortendon',
          one: true,
        },
        {
          n: 'scale',
          a: 'forcewidth contactwidth contactheight connect com camera light selectpoint jointlength jointwidth actuatorlength actuatorwidth framelength framewidth constraint slidercrank frustum',
          one: true,
        },
        {
          n: 'rgba',
          a: 'fog haze force inertia joint actuator actuatornegative actuatorpositive com camera light selectpoint connect contactpoint contactforce contactfriction contacttorque contactgap rangefinder constraint slidercrank crankbroken frustum bv bvactive',
          one: true,
        },
      ],
    },
    {
      n: 'default',
      a: 'class',
      r: true,
      c: [
        { n: 'mesh', a: 'scale maxhullvert inertia', one: true },
        {
          n: 'material',
          a: 'texture texrepeat texuniform emission specular shininess reflectance metallic roughness rgba',
          one: true,
          c: [{ n: 'layer', a: 'texture role' }],
        },
        {
          n: 'joint',
          a: 'type group pos axis springdamper limited actuatorfrclimited solreflimit solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange actuatorgravcomp margin ref springref armature damping frictionloss user',
          one: true,
        },
        {
          n: 'geom',
          a: 'type contype conaffinity condim group priority size material friction mass density shellinertia solmix solref solimp margin gap surfacevel adhesion fromto pos quat axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user',
          one: true,
        },
        { n: 'site', a: 'type group pos quat axisangle xyaxes zaxis euler material size fromto rgba user', one: true },
        {
          n: 'camera',
          a: 'projection fovy ipd resolution output pos quat axisangle xyaxes zaxis euler mode focal focalpixel principal principalpixel sensorsize user',
          one: true,
        },
        {
          n: 'light',
          a: 'directional type castshadow active pos dir bulbradius intensity range attenuation cutoff softness exponent ambient diffuse specular mode',
          one: true,
        },
        { n: 'pair', a: 'condim friction solref solreffriction solimp gap margin adhesion', one: true },
        { n: 'equality', a: 'active solref solimp', one: true },
        {
          n: 'tendon',
          a: 'group limited range solreflimit solimplimit solreffriction solimpfriction frictionloss springlength width material margin stiffness damping rgba user',
          one: true,
        },
        {
          n: 'general',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited actlimited forcerange actrange gear damping armature cranklength actdim input velrange ffrange dyntype gaintype biastype dynprm gainprm biasprm actearly',
          one: true,
        },
        {
          n: 'motor',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear damping armature cranklength',
          one: true,
        },
        {
          n: 'position',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited inheritrange forcerange gear damping armature cranklength kp kv dampratio timeconst',
          one: true,
        },
        {
          n: 'velocity',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear damping armature cranklength kv',
          one: true,
        },
        {
          n: 'intvelocity',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited actlimited forcerange actrange inheritrange gear damping armature cranklength kp kv dampratio',
          one: true,
        },
        { n: 'orientation', a: 'group nsample interp delay ctrlrange user forcelimited forcerange kp kv dampratio input', one: true },
        {
          n: 'pid',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited posrange velrange ffrange forcerange inheritrange gear damping armature cranklength kp kv dampratio ki imax slewmax input',
          one: true,
        },
        {
          n: 'damper',
          a: 'group nsample interp delay ctrlrange user forcelimited forcerange gear damping armature cranklength kv',
          one: true,
        },
        {
          n: 'cylinder',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear damping armature cranklength timeconst area diameter bias',
          one: true,
        },
        {
          n: 'muscle',
          a: 'group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear damping armature cranklength timeconst range force scale lmin lmax vmax fpmax fvmax',
          one: true,
        },
        { n: 'adhesion', a: 'group nsample interp delay ctrlrange user forcelimited forcerange gain', one: true },
        {
          n: 'dcmotor',
          a: 'group nsample interp delay ctrlrange user ctrllimited gear damping armature cranklength motorconst resistance nominal saturation inductance cogging controller thermal lugre input',
          one: true,
        },
      ],
    },
    { n: 'extension', a: '', c: [{ n: 'plugin', a: 'plugin', c: [{ n: 'instance', a: 'name', c: [{ n: 'config', a: 'key value' }] }] }] },
    {
      n: 'asset',
      a: '',
      c: [
        {
          n: 'mesh',
          a: 'name class content_type file vertex normal texcoord face refpos refquat scale smoothnormal maxhullvert inertia builtin params material',
          c: [{ n: 'plugin', a: 'plugin instance', c: [{ n: 'config', a: 'key value' }] }],
        },
        { n: 'hfield', a: 'name content_type file nrow ncol size elevation' },
        {
          n: 'skin',
          a: 'name file material rgba inflate vertex texcoord face group',
          c: [{ n: 'bone', a: 'body bindpos bindquat vertid vertweight' }],
        },
        {
          n: 'texture',
          a: 'name type colorspace content_type file gridsize gridlayout fileright fileleft fileup filedown filefront fileback builtin rgb1 rgb2 mark markrgb random width height hflip vflip nchannel',
        },
        {
          n: 'material',
          a: 'name class texture texrepeat texuniform emission specular shininess reflectance metallic roughness rgba',
          c: [{ n: 'layer', a: 'texture role' }],
        },
        { n: 'model', a: 'name file content_type' },
      ],
    },
    {
      n: 'body',
      a: 'name childclass pos quat axisangle xyaxes zaxis euler mocap gravcomp sleep simple user',
      r: true,
      c: [
        { n: 'inertial', a: 'pos quat mass diaginertia axisangle xyaxes zaxis euler fullinertia', one: true },
        {
          n: 'joint',
          a: 'name class type group pos axis springdamper limited actuatorfrclimited solreflimit solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange actuatorgravcomp margin ref springref armature damping frictionloss user',
        },
        { n: 'freejoint', a: 'name group align' },
        {
          n: 'geom',
          a: 'name class type contype conaffinity condim group priority size material friction mass density shellinertia solmix solref solimp margin gap surfacevel adhesion fromto pos quat axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user',
          c: [{ n: 'plugin', a: 'plugin instance', c: [{ n: 'config', a: 'key value' }] }],
        },
        { n: 'attach', a: 'model body frame prefix' },
        { n: 'site', a: 'name class type group pos quat axisangle xyaxes zaxis euler material size fromto rgba user' },
        {
          n: 'camera',
          a: 'name class projection fovy ipd resolution output pos quat axisangle xyaxes zaxis euler mode target focal focalpixel principal principalpixel sensorsize user',
        },
        {
          n: 'light',
          a: 'name class directional type castshadow active pos dir bulbradius intensity range attenuation cutoff softness exponent ambient diffuse specular mode target texture',
        },
        { n: 'plugin', a: 'plugin instance', c: [{ n: 'config', a: 'key value' }] },
        {
          n: 'composite',
          a: 'prefix type count offset vertex initial curve size quat',
          c: [
            {
              n: 'joint',
              a: 'kind group stiffness damping armature solreffix solimpfix type axis limited range margin solreflimit solimplimit frictionloss solreffriction solimpfriction',
            },
            { n: 'skin', a: 'texcoord material group rgba inflate subgrid', one: true },
            {
              n: 'geom',
              a: 'type contype conaffinity condim group priority size material rgba friction mass density solmix solref solimp margin gap surfacevel adhesion',
              one: true,
            },
            { n: 'site', a: 'group size material rgba', one: true },
            { n: 'plugin', a: 'plugin instance', c: [{ n: 'config', a: 'key value' }] },
          ],
        },
        {
          n: 'flexcomp',
          a: 'name type group dim dof count cellcount spacing radius rigid mass inertiabox scale file point element texcoord material rgba flatskin pos quat axisangle xyaxes zaxis euler origin',
          c: [
            { n: 'edge', a: 'equality solref solimp stiffness damping', one: true },
            { n: 'elasticity', a: 'young poisson damping thickness elastic2d', one: true },
            {
              n: 'contact',
              a: 'contype conaffinity condim priority friction solmix solref solimp margin gap internal selfcollide activelayers passive',
              one: true,
            },
            { n: 'pin', a: 'id range grid gridrange' },
            { n: 'plugin', a: 'plugin instance', c: [{ n: 'config', a: 'key value' }] },
          ],
        },
      ],
    },
    {
      n: 'deformable',
      a: '',
      c: [
        {
          n: 'flex',
          a: 'name group dim radius material rgba flatskin body vertex element texcoord elemtexcoord node nodecoord cellcount dof',
          c: [
            {
              n: 'contact',
              a: 'contype conaffinity condim priority friction solmix solref solimp margin gap internal selfcollide activelayers passive',
              one: true,
            },
            { n: 'edge', a: 'stiffness damping', one: true },
            { n: 'elasticity', a: 'young poisson damping thickness elastic2d', one: true },
          ],
        },
        {
          n: 'skin',
          a: 'name file material rgba inflate vertex texcoord face group',
          c: [{ n: 'bone', a: 'body bindpos bindquat vertid vertweight' }],
        },
      ],
    },
    {
      n: 'contact',
      a: '',
      c: [
        { n: 'pair', a: 'name class geom1 geom2 condim friction solref solreffriction solimp gap margin adhesion' },
        { n: 'exclude', a: 'name body1 body2' },
      ],
    },
    {
      n: 'tendon',
      a: '',
      c: [
        {
          n: 'spatial',
          a: 'name class group limited actuatorfrclimited range actuatorfrcrange solreflimit solimplimit solreffriction solimpfriction frictionloss springlength width material margin stiffness damping armature rgba user',
          c: [
            { n: 'site', a: 'site' },
            { n: 'geom', a: 'geom sidesite' },
            { n: 'pulley', a: 'divisor' },
          ],
        },
        {
          n: 'fixed',
          a: 'name class group limited actuatorfrclimited range actuatorfrcrange solreflimit solimplimit solreffriction solimpfriction frictionloss springlength margin stiffness damping armature user',
          c: [{ n: 'joint', a: 'joint coef' }],
        },
      ],
    },
    {
      n: 'equality',
      a: '',
      c: [
        { n: 'connect', a: 'name class active solref solimp body1 body2 anchor site1 site2' },
        { n: 'weld', a: 'name class active solref solimp body1 body2 relpose anchor site1 site2 torquescale' },
        { n: 'joint', a: 'name class active solref solimp joint1 joint2 polycoef' },
        { n: 'tendon', a: 'name class active solref solimp tendon1 tendon2 polycoef' },
        { n: 'flex', a: 'name class active solref solimp flex' },
        { n: 'flexvert', a: 'name class active solref solimp flex' },
        { n: 'flexstrain', a: 'name class active solref solimp flex cell' },
      ],
    },
    {
      n: 'actuator',
      a: '',
      c: [
        {
          n: 'general',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited actlimited forcerange actrange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite body actdim input velrange ffrange dyntype gaintype biastype dynprm gainprm biasprm actearly',
        },
        {
          n: 'motor',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite',
        },
        {
          n: 'position',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited inheritrange forcerange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite kp kv dampratio timeconst',
        },
        {
          n: 'velocity',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite kv',
        },
        {
          n: 'intvelocity',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited actlimited forcerange actrange inheritrange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite kp kv dampratio',
        },
        {
          n: 'orientation',
          a: 'name class group nsample interp delay ctrlrange user forcelimited forcerange joint site refsite kp kv dampratio input',
        },
        {
          n: 'pid',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited posrange velrange ffrange forcerange inheritrange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite kp kv dampratio ki imax slewmax input',
        },
        {
          n: 'damper',
          a: 'name class group nsample interp delay ctrlrange user forcelimited forcerange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite kv',
        },
        {
          n: 'cylinder',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite timeconst area diameter bias',
        },
        {
          n: 'muscle',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite timeconst tausmooth range force scale lmin lmax vmax fpmax fvmax',
        },
        { n: 'adhesion', a: 'name class group nsample interp delay ctrlrange user forcelimited forcerange body gain' },
        {
          n: 'dcmotor',
          a: 'name class group nsample interp delay ctrlrange user ctrllimited lengthrange gear damping armature cranklength joint jointinparent tendon slidersite cranksite site refsite motorconst resistance nominal saturation inductance cogging controller thermal lugre input',
        },
        {
          n: 'plugin',
          a: 'name class group nsample interp delay ctrlrange user plugin instance ctrllimited forcelimited actlimited forcerange actrange lengthrange gear damping armature cranklength joint jointinparent site actdim dyntype dynprm tendon cranksite slidersite actearly',
          c: [{ n: 'config', a: 'key value' }],
        },
      ],
    },
    {
      n: 'sensor',
      a: '',
      c: [
        { n: 'touch', a: 'name nsample interp delay interval cutoff noise user site' },
        { n: 'accelerometer', a: 'name nsample interp delay interval cutoff noise user site' },
        { n: 'velocimeter', a: 'name nsample interp delay interval cutoff noise user site' },
        { n: 'gyro', a: 'name nsample interp delay interval cutoff noise user site' },
        { n: 'force', a: 'name nsample interp delay interval cutoff noise user site' },
        { n: 'torque', a: 'name nsample interp delay interval cutoff noise user site' },
        { n: 'magnetometer', a: 'name nsample interp delay interval cutoff noise user site' },
        { n: 'camprojection', a: 'name nsample interp delay interval cutoff noise user site camera' },
        { n: 'rangefinder', a: 'name nsample interp delay interval cutoff noise user site camera data' },
        { n: 'jointpos', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'jointvel', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'tendonpos', a: 'name nsample interp delay interval cutoff noise user tendon' },
        { n: 'tendonvel', a: 'name nsample interp delay interval cutoff noise user tendon' },
        { n: 'actuatorpos', a: 'name nsample interp delay interval cutoff noise user actuator' },
        { n: 'actuatorvel', a: 'name nsample interp delay interval cutoff noise user actuator' },
        { n: 'actuatorfrc', a: 'name nsample interp delay interval cutoff noise user actuator' },
        { n: 'jointactuatorfrc', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'tendonactuatorfrc', a: 'name nsample interp delay interval cutoff noise user tendon' },
        { n: 'ballquat', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'ballangvel', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'jointlimitpos', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'jointlimitvel', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'jointlimitfrc', a: 'name nsample interp delay interval cutoff noise user joint' },
        { n: 'tendonlimitpos', a: 'name nsample interp delay interval cutoff noise user tendon' },
        { n: 'tendonlimitvel', a: 'name nsample interp delay interval cutoff noise user tendon' },
        { n: 'tendonlimitfrc', a: 'name nsample interp delay interval cutoff noise user tendon' },
        { n: 'framepos', a: 'name nsample interp delay interval cutoff noise user objtype objname reftype refname' },
        { n: 'framequat', a: 'name nsample interp delay interval cutoff noise user objtype objname reftype refname' },
        { n: 'framexaxis', a: 'name nsample interp delay interval cutoff noise user objtype objname reftype refname' },
        { n: 'frameyaxis', a: 'name nsample interp delay interval cutoff noise user objtype objname reftype refname' },
        { n: 'framezaxis', a: 'name nsample interp delay interval cutoff noise user objtype objname reftype refname' },
        { n: 'framelinvel', a: 'name nsample interp delay interval cutoff noise user objtype objname reftype refname' },
        { n: 'frameangvel', a: 'name nsample interp delay interval cutoff noise user objtype objname reftype refname' },
        { n: 'framelinacc', a: 'name nsample interp delay interval cutoff noise user objtype objname' },
        { n: 'frameangacc', a: 'name nsample interp delay interval cutoff noise user objtype objname' },
        { n: 'subtreecom', a: 'name nsample interp delay interval cutoff noise user body' },
        { n: 'subtreelinvel', a: 'name nsample interp delay interval cutoff noise user body' },
        { n: 'subtreeangmom', a: 'name nsample interp delay interval cutoff noise user body' },
        { n: 'insidesite', a: 'name nsample interp delay interval cutoff noise user site objtype objname' },
        { n: 'distance', a: 'name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2' },
        { n: 'normal', a: 'name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2' },
        { n: 'fromto', a: 'name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2' },
        {
          n: 'contact',
          a: 'name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2 subtree1 subtree2 site num data reduce',
        },
        { n: 'e_potential', a: 'name nsample interp delay interval cutoff noise user' },
        { n: 'e_kinetic', a: 'name nsample interp delay interval cutoff noise user' },
        { n: 'clock', a: 'name nsample interp delay interval cutoff noise user' },
        { n: 'tactile', a: 'name geom mesh nsample interp delay interval user' },
        { n: 'user', a: 'name objtype objname datatype needstage dim cutoff noise user' },
        { n: 'plugin', a: 'name plugin instance cutoff objtype objname reftype refname user', c: [{ n: 'config', a: 'key value' }] },
      ],
    },
    {
      n: 'custom',
      a: '',
      c: [
        { n: 'numeric', a: 'name size data' },
        { n: 'text', a: 'name data' },
        { n: 'tuple', a: 'name', c: [{ n: 'element', a: 'objtype objname prm' }] },
      ],
    },
    { n: 'keyframe', a: '', c: [{ n: 'key', a: 'name time qpos qvel act mpos mquat ctrl' }] },
  ],
};

const BODY_ROW = MJCF_SCHEMA.c!.find((s) => s.n === 'body')!;

/** <frame> and <replicate> (mjcf.schema "element frame (alias=body)", "element replicate
 *  (alias=body)"): MuJoCo validates them by the body row's name (mjXSchema::NameMatch), but its
 *  Check recurses only into children named body, so MuJoCo 3.14 checks neither their attributes
 *  nor anything inside them. Here they are checked against the attributes the schema declares for
 *  them, with the children of a body (what may not stand inside is refused by body.ts). */
export const FRAME_ROW: SchemaNode = { n: 'frame', a: 'name childclass pos quat axisangle xyaxes zaxis euler', c: BODY_ROW.c };
export const REPLICATE_ROW: SchemaNode = { n: 'replicate', a: 'count offset euler sep childclass', c: BODY_ROW.c };
export { BODY_ROW };
