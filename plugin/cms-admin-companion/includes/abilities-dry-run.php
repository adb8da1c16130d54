<?php
/**
 * A dry run of a WordPress ability (0.7.0, issue #62): every check the Abilities API's run route
 * makes before it executes — the ability shown in REST, its input normalized and validated against
 * its schema, its permission callback for the signed-in account — and nothing else. WordPress has
 * no such route: /wp-abilities/v1/abilities/<name>/run checks and executes in one request
 * (WP_REST_Abilities_V1_Run_Controller::check_ability_permissions, then execute_ability).
 *
 *   POST cms-admin/v1/abilities/dry-run {"name": "ns/ability", "input": …}
 *
 * Answers `{ability, input, permitted: true}` (the input as the ability would receive it), or the
 * error the run route would answer, with its status: 404 rest_ability_not_found, 400 for invalid
 * input, 401/403 for a refused permission (rest_ability_cannot_execute or the callback's own).
 * https://developer.wordpress.org/reference/classes/wp_ability/check_permissions/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/abilities/dry-run', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_ability_dry_run',
        // As the abilities list: any signed-in account; the ability's own callback decides below.
        'permission_callback' => static fn () => current_user_can('read'),
        'args' => [
            'name' => ['type' => 'string', 'required' => true, 'pattern' => '^[a-z0-9-]+/[a-z0-9-]+$'],
        ],
    ]);
});

/** @return array|WP_Error */
function cms_admin_ability_dry_run(WP_REST_Request $request)
{
    if (!function_exists('wp_get_ability')) {
        return new WP_Error('cms_admin_no_abilities', 'This site has no Abilities API (WordPress 6.9 added it).', ['status' => 501]);
    }
    $name = (string) $request['name'];
    $ability = wp_has_ability($name) ? wp_get_ability($name) : null;
    // Hidden from REST: hidden here too, exactly as the run route answers it.
    if (!$ability || !$ability->get_meta_item('show_in_rest')) {
        return new WP_Error('rest_ability_not_found', 'Ability not found.', ['status' => 404]);
    }
    $params = $request->get_json_params();
    $input = $ability->normalize_input(is_array($params) && array_key_exists('input', $params) ? $params['input'] : null);
    if (is_wp_error($input)) {
        return cms_admin_ability_error_status($input, 400);
    }
    $valid = $ability->validate_input($input);
    if (is_wp_error($valid)) {
        return cms_admin_ability_error_status($valid, 400);
    }
    $permitted = $ability->check_permissions($input);
    if (is_wp_error($permitted)) {
        $permitted->add_data(['status' => rest_authorization_required_code()]);
        return $permitted;
    }
    if (!$permitted) {
        return new WP_Error(
            'rest_ability_cannot_execute',
            'Sorry, you are not allowed to execute this ability.',
            ['status' => rest_authorization_required_code()]
        );
    }
    return ['ability' => $name, 'input' => $input, 'permitted' => true];
}

/** The error with `$status` unless it carries one (as WordPress 7.1's run route does). */
function cms_admin_ability_error_status(WP_Error $error, int $status): WP_Error
{
    $data = $error->get_error_data();
    if (!is_array($data) || !isset($data['status'])) {
        $error->add_data(['status' => $status]);
    }
    return $error;
}
